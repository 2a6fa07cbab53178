/* The site's own reader behaviour, beside Material's bundle. */
(function () {
  "use strict";

  /* The language switcher keeps the #section: heading ids are the same in every language,
     but for the term index's letters, where data-kb-anchors names the nearest letter the other
     language has. The link, the page in the other language, is followed as written. */
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element && event.target.closest("a.md-select__link[hreflang]");
    if (!link || event.metaKey || event.ctrlKey) return;
    if (location.hash) {
      var id = decodeURIComponent(location.hash.slice(1));
      var moved = JSON.parse(link.getAttribute("data-kb-anchors") || "{}");
      link.hash = Object.prototype.hasOwnProperty.call(moved, id) ? moved[id] : location.hash;
    }
  }, true);

  /* On touch, the first tap on a linked term shows its definition (Material's tooltip opens
     on the tap); a second tap on the same term follows the link. */
  var lastPointer = "mouse";
  var armed = null;
  document.addEventListener("pointerdown", function (event) {
    lastPointer = event.pointerType;
  }, true);
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element && event.target.closest("article a");
    if (!link || lastPointer !== "touch" || !link.querySelector("abbr")) {
      armed = null;
      return;
    }
    if (armed !== link) {
      armed = link;
      event.preventDefault();
    }
  }, true);

  /* Material gives each code block a <nav> for its buttons, all unnamed: each gets a name of
     its own (the copy button's title and the block's number), so that landmarks stay distinct. */
  function nameCodeNavs() {
    document.querySelectorAll(".md-code__nav:not([aria-label])").forEach(function (nav) {
      var button = nav.querySelector("[title]");
      var block = nav.closest("[id^='__code_']");
      var number = block ? Number(block.id.replace("__code_", "")) + 1 : "";
      nav.setAttribute("aria-label", ((button && button.title) || "Code") + " " + number);
    });
  }

  /* Material's code annotation markers are links that show their number through CSS only:
     each gets that number as its name, so that it has one for a screen reader (axe: link-name). */
  function nameAnnotationMarkers() {
    document.querySelectorAll(".md-annotation__index:not([aria-label])").forEach(function (marker) {
      var number = marker.querySelector("[data-md-annotation-id]");
      if (number) marker.setAttribute("aria-label", number.getAttribute("data-md-annotation-id"));
    });
  }
  /* Material mounts both after load: one watch names them as they come. */
  function nameMounted() {
    nameCodeNavs();
    nameAnnotationMarkers();
  }
  nameMounted();
  new MutationObserver(nameMounted).observe(document.body, { childList: true, subtree: true });

  /* A code block wider than its column says so: a fade at the edge that scrolls. */
  function markScrollable() {
    document.querySelectorAll(".highlight pre > code").forEach(function (code) {
      var block = code.closest(".highlight");
      block.classList.toggle("kb-scrolls", code.scrollWidth > code.clientWidth + 1);
      keyboardScrollable(code);
    });
  }
  window.addEventListener("load", markScrollable);
  window.addEventListener("resize", markScrollable);

  /* Such a block can be scrolled from the keyboard too: Material makes it focusable only where
     the device can hover, and takes that away again on a touch screen (when it mounts the block). */
  function keyboardScrollable(code) {
    var scrolls = !!code.closest(".kb-scrolls");
    if (scrolls && code.getAttribute("tabindex") !== "0") code.setAttribute("tabindex", "0");
  }
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      if (record.target.matches(".highlight pre > code")) keyboardScrollable(record.target);
    });
  }).observe(document.body, { attributes: true, attributeFilter: ["tabindex"], subtree: true });
})();
