/* The site's search worker: Material's own, imported, with three things Material cannot be
   configured to do (jax_kb/site/search_index.py writes the indexes it reads):
   - the language's index is fetched only once the reader opens search: the page's own
     search/search_index.json holds the configuration only, and the documents are fetched on
     the page's word (kb-search.js, over the "kb-search" channel) or on the first query;
   - lunr folds accents and letter variants the same way in the index and in the query,
     indexes each word's stem beside its folded form, and finds a word typed one or two edits
     away from an indexed word, ranked below every exact match;
   - each result names the words the reader typed ("Missing: ..." shows them), and links to
     the page with ?h= set to the page's words that matched them, for kb-search.js to mark.
   Material's messages (SETUP, READY, QUERY, RESULT) stay as they are. */
(function () {
  "use strict";
  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
  // Below every exact match: a fuzzy match in the most boosted field (tags, x1e6) of a term
  // page (x10) stays under an exact match in the text (x1) of an index page (x0.05).
  var FUZZY_BOOST = 1e-9;
  var MAX_FORMS = 24;

  var root = new URL("../../../", location.href);  // the worker is assets/javascripts/workers/
  var post = self.postMessage.bind(self);
  var setup = null;  // Material's SETUP message, with the configuration only
  var loading = null;  // a Promise, once the documents are asked for
  var materialReady = null;
  var forwarding = false;
  var pending = [];  // the queries Material is answering, in order

  function fold(text) {
    // Marks off (é, ș, ё, ţ), so "compilacion" is "compilación" and "счетчик" "счётчик".
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC").toLowerCase();
  }

  function forward(message) {
    forwarding = true;
    try {
      self.dispatchEvent(new MessageEvent("message", { data: message }));
    } finally {
      forwarding = false;
    }
  }

  function load() {
    if (!loading && setup) {
      loading = fetch(new URL(setup.data.config.kb.documents, root).href)
        .then(function (response) {
          if (!response.ok) throw new Error(response.status + " " + response.url);
          return response.json();
        })
        .then(function (index) {
          return new Promise(function (resolve) {
            materialReady = resolve;
            forward({ type: SETUP, data: { config: index.config, docs: index.docs, options: setup.data.options } });
          });
        });
    }
    return loading;
  }

  // Registered before Material's own listener (imported below), so it sees every message first.
  self.addEventListener("message", function (event) {
    if (forwarding) return;
    event.stopImmediatePropagation();
    var message = event.data;
    if (message.type === SETUP) {
      setup = message;
      post({ type: READY });
      if (wanted) load();
    } else if (message.type === QUERY) {
      var empty = function () { post({ type: RESULT, data: { items: [] } }); };
      if (!String(message.data).trim()) {
        // after the answers still on their way, so that an emptied box stays empty
        if (loading) loading.then(empty, empty); else empty();
        return;
      }
      load().then(function () {
        pending.push(message.data);
        forward(message);
      }, function (error) {
        console.warn("search index:", error);
        loading = null;  // the next query tries again
        empty();
      });
    }
  });

  var wanted = false;
  if (typeof BroadcastChannel !== "undefined") {
    var channel = new BroadcastChannel("kb-search");
    channel.onmessage = function (event) {
      if (event.data === "open") {
        wanted = true;
        load();
      }
    };
    // Search may be open already (a ?q= link, a quick reader). The channel is the site's: a tab
    // that opens search makes the site's other open tabs fetch their index too.
    channel.postMessage("asking");
  }

  self.postMessage = function (message) {
    if (message.type === READY) {
      if (materialReady) materialReady();
      return;
    }
    if (message.type === RESULT) {
      message = { type: RESULT, data: withTypedWords(message.data, pending.shift() || "") };
    }
    post(message);
  };

  importScripts(new URL(location.href).searchParams.get("material"));

  /* lunr, as Material's worker left it in the global scope */
  var indexPipeline = null, searchPipeline = null, index = null;
  var forms = Object.create(null);  // an index term: the folded words of the site it stands for

  var indexing = false;  // only the site's words are remembered, never a query's
  function remember(term, word) {
    if (!indexing) return;
    var known = forms[term] || (forms[term] = []);
    if (known.indexOf(word) < 0) known.push(word);
  }

  // The word as written, folded and without the punctuation a language's trimmer would take.
  var keepWord = function (token) {
    token.metadata.kbWord = fold(token.toString()).replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, "");
    return token;
  };
  // Last in the index's pipeline: each word as its stem, folded, and as itself, folded.
  var stemAndWord = function (token) {
    var word = token.metadata.kbWord;
    var stem = fold(token.toString());
    if (!word) return token;
    remember(stem, word);
    if (stem === word) return token.update(function () { return stem; });
    remember(word, word);
    return [token.clone(function () { return stem; }), token.clone(function () { return word; })];
  };
  lunr.Pipeline.registerFunction(keepWord, "kb-keep-word");
  lunr.Pipeline.registerFunction(stemAndWord, "kb-stem-and-word");

  var add = lunr.Builder.prototype.add;
  lunr.Builder.prototype.add = function (doc, attributes) {
    if (!this.kbReady) {
      this.kbReady = true;
      this.pipeline._stack.unshift(keepWord);
      this.pipeline._stack.push(stemAndWord);
      indexPipeline = this.pipeline;
      searchPipeline = this.searchPipeline;
      forms = Object.create(null);
    }
    indexing = true;
    try {
      return add.call(this, doc, attributes);
    } finally {
      indexing = false;
    }
  };
  var build = lunr.Builder.prototype.build;
  lunr.Builder.prototype.build = function () {
    index = build.call(this);
    // lunr's fuzzy automaton can yield a word the index does not have (a transposition beside a
    // "."), on which its query fails: only the index's own words are looked up.
    var tokens = index.tokenSet, inverted = index.invertedIndex;
    index.tokenSet = Object.create(tokens);
    index.tokenSet.intersect = function (other) {
      var found = tokens.intersect(other);
      return { toArray: function () {
        return found.toArray().filter(function (term) { return Object.prototype.hasOwnProperty.call(inverted, term); });
      } };
    };
    return index;
  };

  function stemOf(word) {
    // A stemmer may keep the written forms beside the stem (lunr.sk): the stem is the shortest.
    var stems = searchPipeline.runString(word).filter(Boolean);
    return stems.length ? fold(stems.reduce(function (a, b) { return b.length < a.length ? b : a; })) : fold(word);
  }

  // The clauses of one typed word: its stem and its folded form as prefixes (Material searches
  // as the reader types), and the folded form one or two edits away, far below.
  function wordClauses(word, clause) {
    var folded = fold(word);
    var base = { fields: clause.fields, presence: clause.presence, usePipeline: false };
    var clauses = [
      Object.assign({}, base, { term: stemOf(word), boost: clause.boost, wildcard: lunr.Query.wildcard.TRAILING })];
    if (clause.presence === lunr.Query.presence.REQUIRED) return clauses;
    clauses.push(Object.assign({}, base, { term: folded, boost: clause.boost, wildcard: lunr.Query.wildcard.TRAILING }));
    if (folded.length > 2) {
      clauses.push(Object.assign({}, base, { term: folded, boost: clause.boost * FUZZY_BOOST,
                                             editDistance: folded.length > 4 ? 2 : 1 }));
    }
    return clauses;
  }

  function typedWord(clause) {
    // Material sends each word with a trailing "*"; a word the reader marked (~, ^) stays theirs.
    var m = /^([^*]+)\*$/.exec(clause.term);
    return m && !clause.editDistance ? m[1] : null;
  }

  var query = lunr.Index.prototype.query;
  lunr.Index.prototype.query = function (fn) {
    return query.call(this, function (q) {
      fn.call(q, q);
      var clauses = q.clauses;
      q.clauses = [];
      clauses.forEach(function (clause) {
        var word = typedWord(clause);
        if (word === null || clause.presence === lunr.Query.presence.PROHIBITED) {
          q.clause(Object.assign({}, clause, { term: fold(clause.term) }));
        } else {
          wordClauses(word, clause).forEach(function (c) { q.clause(c); });
        }
      });
    });
  };

  // The words of the query as the reader typed them, split as Material splits them.
  function typedWords(value) {
    var separator = new RegExp(setup.data.config.separator);
    return value.replace(/["+\-~^*:]/g, " ").split(separator).filter(Boolean)
      .filter(function (word, i, words) { return words.indexOf(word) === i; });
  }

  // For each typed word: the documents it matches, with the site's words that matched there.
  function matches(word) {
    var found = Object.create(null);
    var clause = { fields: index.fields, boost: 1, presence: lunr.Query.presence.OPTIONAL };
    query.call(index, function (q) {
      wordClauses(word, clause).forEach(function (c) { q.clause(c); });
    }).forEach(function (result) {
      var words = [];
      Object.keys(result.matchData.metadata).forEach(function (term) {
        (forms[term] || [term]).forEach(function (w) { if (words.indexOf(w) < 0) words.push(w); });
      });
      found[result.ref] = words;
    });
    return found;
  }

  function isStopWord(word) {
    return indexPipeline.runString(word).length === 0;
  }

  function withHighlight(location, words) {
    var hash = location.indexOf("#");
    var path = hash < 0 ? location : location.slice(0, hash);
    if (!words.length) return location;
    return path + "?h=" + encodeURIComponent(words.slice(0, MAX_FORMS).join(" ")) +
      (hash < 0 ? "" : location.slice(hash));
  }

  function withTypedWords(result, value) {
    if (!index || !result.items) return result;
    var words = typedWords(value);
    var found = words.map(matches);
    result.items = result.items.map(function (group) {
      var pageWords = [];
      var items = group.map(function (item) {
        var terms = {};
        var highlight = [];
        words.forEach(function (word, i) {
          var matched = found[i][item.location];
          if (matched) {
            terms[word] = true;
            matched.forEach(function (w) { if (highlight.indexOf(w) < 0) highlight.push(w); });
          } else if (!isStopWord(word)) {
            terms[word] = false;
          }
        });
        highlight.forEach(function (w) { if (pageWords.indexOf(w) < 0) pageWords.push(w); });
        return Object.assign({}, item, { terms: terms, kbWords: highlight });
      });
      // A page that matched only in its sections found what they found, and highlights it.
      return items.map(function (item) {
        var page = item.location.indexOf("#") < 0;
        if (page) {
          Object.keys(item.terms).forEach(function (word) {
            item.terms[word] = items.some(function (other) { return other.terms[word]; });
          });
        }
        var done = Object.assign({}, item, { location: withHighlight(item.location, page ? pageWords : item.kbWords) });
        delete done.kbWords;
        return done;
      });
    });
    return result;
  }
})();
