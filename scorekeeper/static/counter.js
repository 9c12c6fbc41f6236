// Shows the Schnapsen counter's totals as cards are tapped and fills the points and tricks boxes;
// a side that tapped nothing while the other did took no trick. The server counts the same way.
function put(name, value) {
  var radio = document.querySelector("input[type=radio][name='" + name + "'][value='" + value + "']");
  var box = document.querySelector("input[type=number][name='" + name + "']");
  if (radio) radio.checked = true;
  if (box) box.value = value;
}
function count(box) {
  var cards = box.querySelectorAll("input[name^=count-]:checked");
  var points = 0;
  cards.forEach(function (c) { points += Number(c.dataset.points); });
  var plain = box.querySelector("input[name^=m20-]:checked");
  var royal = box.querySelector("input[name^=m40-]");
  if (points > 0) points += (plain ? Number(plain.value) * 20 : 0) + (royal && royal.checked ? 40 : 0);
  return {cards: cards.length, points: points, tricks: Math.floor(cards.length / 2)};
}
function update() {
  var boxes = document.querySelectorAll(".counter fieldset[data-side]");
  var counts = Array.prototype.map.call(boxes, count);
  var used = counts.some(function (c) { return c.cards > 0; });
  boxes.forEach(function (box, i) {
    var c = counts[i];
    box.querySelector("output").textContent = "= " + c.points + " points, " + c.tricks + " tricks";
    if (used) { put("points-" + box.dataset.side, c.points); put("tricks-" + box.dataset.side, c.tricks); }
  });
}
document.querySelectorAll(".counter fieldset[data-side]").forEach(function (box) {
  box.addEventListener("change", update);
});
