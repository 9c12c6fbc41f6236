// The hand form, quicker where scripts run (it works without them): a total's other side follows
// the side tapped, and each event is one tap. The screen is kept awake while a match is open.
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
// Events: a button per side and type fills the next empty entry; only entries made are listed.
document.querySelectorAll(".palette").forEach(function (palette) {
  var field = palette.closest("fieldset"), slots = [].slice.call(field.querySelectorAll(".slot"));
  function filled(slot) {
    return [].some.call(slot.querySelectorAll("select"), function (s) { return s.value; });
  }
  function tidy() {
    slots.forEach(function (slot) { slot.style.display = filled(slot) ? "" : "none"; });
    field.querySelectorAll(".slots details").forEach(function (more) {
      var used = [].some.call(more.querySelectorAll(".slot"), filled);
      more.style.display = used ? "" : "none";
      more.open = used;
    });
  }
  palette.addEventListener("click", function (e) {
    var add = e.target.closest("button"), free = slots.filter(function (s) { return !filled(s); })[0];
    if (!add || !free) return;
    var pair = free.querySelectorAll("select");
    pair[0].value = add.dataset.side;
    pair[1].value = add.dataset.type;
    tidy();
  });
  field.addEventListener("change", tidy);
  palette.hidden = false;
  tidy();
});
