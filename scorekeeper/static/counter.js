// Shows the Schnapsen counter's total as cards are tapped, and fills the points and tricks boxes.
function put(name, value) {
  var radio = document.querySelector("input[type=radio][name='" + name + "'][value='" + value + "']");
  var box = document.querySelector("input[type=number][name='" + name + "']");
  if (radio) radio.checked = true;
  if (box) box.value = value;
}
document.querySelectorAll(".counter fieldset[data-side]").forEach(function (box) {
  var side = box.dataset.side;
  function update() {
    var cards = box.querySelectorAll("input[name^=count-]:checked");
    var points = 0;
    cards.forEach(function (c) { points += Number(c.dataset.points); });
    var plain = box.querySelector("input[name^=m20-]:checked");
    var royal = box.querySelector("input[name^=m40-]");
    if (points > 0) points += (plain ? Number(plain.value) * 20 : 0) + (royal && royal.checked ? 40 : 0);
    var tricks = Math.floor(cards.length / 2);
    box.querySelector("output").textContent = "= " + points + " points, " + tricks + " tricks";
    if (cards.length) { put("points-" + side, points); put("tricks-" + side, tricks); }
  }
  box.addEventListener("change", update);
});
