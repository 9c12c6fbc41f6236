// Each pile's taps, a tap per card of the pack in its order, drawn from the pack's one list on the
// page (its <template>: ranks and suits, a calculator's points); the server draws only the cards a
// pile holds, so that a phone without scripts keeps them.
for (const pile of document.querySelectorAll("[data-pile]")) {
  const pack = document.getElementById(pile.closest("[data-pack]").dataset.pack), [ranks, suits] = pack.content.querySelectorAll("select");
  const points = (pack.dataset.points || "").split(" "), held = {};
  for (const input of pile.querySelectorAll("input")) held[input.value] = input.closest("label");
  const cards = [...suits.options].slice(1).flatMap(suit => [...ranks.options].slice(1).map(rank => [rank, suit]));
  pile.replaceChildren(...cards.map(([rank, suit], i) => {
    const code = rank.value + suit.value;
    if (held[code]) return held[code];
    const tap = document.createElement("label"), input = tap.appendChild(document.createElement("input"));
    const face = tap.appendChild(document.createElement("span"));
    tap.className = "pick";
    Object.assign(input, {type: "checkbox", name: pile.dataset.pile, value: code});
    if (points[i]) input.dataset.points = points[i];
    face.className = "suit-" + suit.value;
    face.textContent = rank.text + suit.text;
    return tap;
  }));
}
