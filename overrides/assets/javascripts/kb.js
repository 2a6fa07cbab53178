/* The site's own reader behaviour, beside Material's bundle. */
(function () {
  "use strict";

  /* The language switcher keeps the #section: heading ids are the same in every language.
     Material's own handler would send the reader to the page without it (or to the
     language's home, where its sitemap lacks the page), so the link is followed as written. */
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element && event.target.closest("a.md-select__link[hreflang]");
    if (!link || event.metaKey || event.ctrlKey) return;
    event.stopPropagation();
    if (location.hash) {
      link.hash = location.hash;
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
  nameCodeNavs();
  new MutationObserver(nameCodeNavs).observe(document.body, { childList: true, subtree: true });

  /* Material's code annotation markers are links that show their number through CSS only:
     each gets that number as its name, so that it has one for a screen reader (axe: link-name). */
  function nameAnnotationMarkers() {
    document.querySelectorAll(".md-annotation__index:not([aria-label])").forEach(function (marker) {
      var number = marker.querySelector("[data-md-annotation-id]");
      if (number) marker.setAttribute("aria-label", number.getAttribute("data-md-annotation-id"));
    });
  }
  nameAnnotationMarkers();
  new MutationObserver(nameAnnotationMarkers).observe(document.body, { childList: true, subtree: true });

  /* A code block wider than its column says so: a fade at the edge that scrolls. */
  function markScrollable() {
    document.querySelectorAll(".highlight pre > code").forEach(function (code) {
      var block = code.closest(".highlight");
      block.classList.toggle("kb-scrolls", code.scrollWidth > code.clientWidth + 1);
    });
  }
  window.addEventListener("load", markScrollable);
  window.addEventListener("resize", markScrollable);
})();
