// Keeps the screen awake while a match is open, where the browser has the Screen Wake Lock API;
// the lock is let go when the page is hidden, so it is asked for again when the page comes back.
(function () {
  if (!("wakeLock" in navigator)) return;
  function ask() {
    if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(function () {});
  }
  document.addEventListener("visibilitychange", ask);
  ask();
})();
