// The hand form, quicker where scripts run (it works without them): a total's other side follows
// the side tapped (cards.js and palette.js draw the long lists). The screen is kept awake while a match is open.
(function () {
  if (!("wakeLock" in navigator)) return;
  function ask() {
    if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(function () {});
  }
  document.addEventListener("visibilitychange", ask);
  ask();
})();
document.querySelectorAll("fieldset[data-total]").forEach(function (total) {
  var sides = total.querySelectorAll(":scope>fieldset");
  if (sides.length !== 2) return;
  total.addEventListener("input", function (e) {
    var own = e.target.closest("fieldset"), other = sides[own === sides[0] ? 1 : 0];
    if (e.target.value === "" || own.parentNode !== total) return;
    var rest = total.dataset.total - e.target.value;
    var pick = other.querySelector("input[type=radio][value='" + rest + "']"), box = other.querySelector("input[type=number]");
    if (pick) pick.checked = true;
    if (box && rest >= 0) box.value = rest;
  });
});
