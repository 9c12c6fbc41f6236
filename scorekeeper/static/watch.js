// A watching phone follows the match: the server sends one event when the match changes (or
// nothing within a short wait), and the page reloads to show the new score.
(function () {
  var banner = document.querySelector("[data-watch]");
  if (!banner || !("EventSource" in window)) return;
  var source = new EventSource(banner.dataset.watch);
  source.addEventListener("change", function () { source.close(); location.reload(); });
})();
