// Each card's rank and suit choosers, drawn from the pack's one list on the page (its <template>),
// named and worded as the page says; the server draws only the choosers of a hand that holds cards.
{  // a block: its names stay its own beside the page's other scripts
  const say = (pattern, hole, value) => pattern.replace(hole, () => value);
  const make = (tag, into) => into.appendChild(document.createElement(tag));

  for (const hands of document.querySelectorAll("[data-size]")) {
    const pack = document.getElementById(hands.dataset.pack), lists = pack.content.querySelectorAll("select");
    hands.querySelectorAll(".hand").forEach((hand, h) => {
      for (let n = 0, box; n < hands.dataset.size; n++, box = null) {
        const card = say(say(say(hands.dataset.label, "%(number)s", n + 1), "%(row)s", h + 1), "%(hand)s", hand.firstChild.textContent);
        ["rank", "suit"].forEach((part, i) => {
          const name = `${hands.dataset.name}-${h}-${n}-${part}`;
          let select = hand.querySelector(`[name="${name}"]`);
          if (!select) {
            box = box || make("span", hand);
            box.className = "card";
            select = make("select", box);
            select.name = name;
            select.setAttribute("aria-label", say(pack.dataset[part], "%(card)s", card));
          }
          const held = select.value;  // stays chosen, and the value a reset goes back to
          select.replaceChildren(...[...lists[i].options].map(o => new Option(o.text, o.value, o.value === held, o.value === held)));
        });
      }
    });
  }
}
