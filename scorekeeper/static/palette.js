// Events one tap each: a button per side and type fills the next empty entry; only entries made are
// listed. The server draws the first entries (a phone without scripts chooses in them); the rest, up
// to the list's most, are copies of the first, named and worded as the page says.
for (const palette of document.querySelectorAll(".palette")) {
  const field = palette.closest("fieldset"), list = field.querySelector(".slots");
  const slots = [...field.querySelectorAll(".slot")], more = list.querySelector("details") || list;
  for (let i = slots.length; i < list.dataset.most; i++) {
    const entry = more.appendChild(slots[0].cloneNode(true));
    entry.querySelector(".slot-n").textContent = i + 1;
    for (const select of entry.querySelectorAll("select")) {
      const part = select.name.split("-").pop();
      select.name = select.name.replace(/\d+(?=-\w+$)/, i);
      select.setAttribute("aria-label", list.dataset[part + "Label"].replace("%(number)s", i + 1));
      for (const option of select.options) option.defaultSelected = false;
      select.value = "";
    }
    slots.push(entry);
  }
  const filled = slot => [...slot.querySelectorAll("select")].some(s => s.value);
  const tidy = () => {
    for (const slot of slots) slot.style.display = filled(slot) ? "" : "none";
    for (const folded of list.querySelectorAll("details")) {
      folded.open = [...folded.querySelectorAll(".slot")].some(filled);
      folded.style.display = folded.open ? "" : "none";
    }
  };
  palette.addEventListener("click", e => {
    const add = e.target.closest("button"), free = slots.find(s => !filled(s));
    if (!add || !free) return;
    const [side, type] = free.querySelectorAll("select");
    side.value = add.dataset.side;
    type.value = add.dataset.type;
    tidy();
  });
  field.addEventListener("change", tidy);
  palette.hidden = false;
  tidy();
}
