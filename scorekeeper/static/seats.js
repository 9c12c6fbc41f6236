// The new-match and set-up forms: the first-dealer choices name the players as their names are
// typed. Without this script each choice says which player it is in the order listed.
(function () {
  document.querySelectorAll("input[id^='seat-']").forEach(function (box) {
    var label = document.querySelector(".dealer-" + box.id.slice(5) + " span");
    if (!label) return;
    function follow() {
      label.textContent = box.value.trim() || label.dataset.unnamed;
    }
    box.addEventListener("input", follow);
    follow();
  });
})();
