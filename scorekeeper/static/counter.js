// Shows a hand calculator's live total as cards are tapped and fills the boxes it counts for.
// Every number comes from the page (data-points on each card and extra's group); the server counts too.
function put(name, value) {
  var radio = document.querySelector("input[type=radio][name='" + name + "'][value='" + value + "']");
  var box = document.querySelector("input[type=number][name='" + name + "']");
  if (radio) radio.checked = true;
  if (box) box.value = value;
}
function count(box) {
  var cards = box.querySelectorAll(".cards input:checked");
  var points = 0;
  cards.forEach(function (c) { points += Number(c.dataset.points); });
  if (points > 0) {
    box.querySelectorAll(".choices input:checked").forEach(function (e) {
      points += Number(e.closest("[data-points]").dataset.points) * (e.type === "radio" ? Number(e.value) : 1);
    });
  }
  return {cards: cards.length, points: points, tricks: Math.floor(cards.length / 2)};
}
// A calculator fills points, and tricks where the game counts them (two cards to a trick).
function value(c, name) { return name === "tricks" ? c.tricks : c.points; }
function update(panel) {
  var boxes = panel.querySelectorAll("fieldset[data-side]");
  var counts = Array.prototype.map.call(boxes, count);
  var used = counts.some(function (c) { return c.cards > 0; });
  boxes.forEach(function (box, i) {
    var c = counts[i];
    var fills = box.dataset.fills.split(" ");
    var shown = fills.map(function (name) { return value(c, name) + " " + name; });
    box.querySelector("output").textContent = "= " + shown.join(", ");
    if (!used) return;
    fills.forEach(function (name) { put(name + "-" + box.dataset.side, value(c, name)); });
  });
}
document.querySelectorAll(".counter").forEach(function (panel) {
  panel.addEventListener("change", function () { update(panel); });
});
