// A watching phone follows the match: the server sends one event when the match changes (or
// nothing within a short wait), and the page reloads to show the new score. Not while a table
// code is being typed: a reload would wipe it, so the banner says the score moved instead.
(function () {
  var banner = document.querySelector("[data-watch]");
  if (!banner || !("EventSource" in window)) return;
  var code = document.getElementById("table-code");
  var source = new EventSource(banner.dataset.watch);
  source.addEventListener("change", function () {
    source.close();
    if (code && (code.value || document.activeElement === code)) {
      banner.firstChild.textContent = "The score has moved: ";
      return;
    }
    location.reload();
  });
})();
