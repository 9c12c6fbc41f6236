// A night's big screen on a TV: when its boards hold more than the screen does at its type size (many
// tables of four long names), the type steps down until every board is on the screen, rather than
// boards falling off its edge where nobody can scroll to them. Never below two thirds of the size.
(function () {
  var root = document.documentElement;
  function fit() {
    root.style.removeProperty("--fit");
    if (!matchMedia("(min-width:60rem) and (orientation:landscape)").matches) return;
    for (var scale = 0.95; scale > 0.66 && (root.scrollWidth > innerWidth || root.scrollHeight > innerHeight); scale -= 0.05) {
      root.style.setProperty("--fit", scale);
    }
  }
  fit();
  addEventListener("resize", fit);
})();
