// The outbox: a hand, edit, undo or finish waits on the phone (IndexedDB) until the server answers it,
// with the hand number it expects and a one-time token (a token seen before gets its first answer).
// A module: a browser too old for it posts the forms as ever.
const $ = selector => document.querySelector(selector), AWAY = 0, DONE = 1;
const WRITES = /^\/matches\/(\d+)\/(hands|hands\/(\d+)\/edit|undo|finish)$/;
const here = +(location.pathname.match(/^\/matches\/(\d+)/) || [])[1] || 0;
const version = ($("meta[name=match-version]") || {}).content;
const hand = $("form.hand-form[action$='/hands']"), undo = $(".actions form[action$='/undo']");
const board = $("section.board"), undoing = undo && undo.elements.expected;
const counted = undoing ? +undoing.value : hand ? hand.elements.expected.value - 1 : 0;
let sending, again, wait = 2000, timer, box;

const opened = new Promise((resolve, reject) => {
  const asked = indexedDB.open("scorekeeper", 1);
  asked.onupgradeneeded = () => asked.result.createObjectStore("outbox", {keyPath: "id", autoIncrement: true});
  asked.onsuccess = () => resolve(asked.result);
  asked.onerror = reject;
});
const store = (work, mode = "readwrite") => opened.then(db => new Promise((resolve, reject) => {
  const done = db.transaction("outbox", mode), asked = work(done.objectStore("outbox"));
  done.oncomplete = () => resolve(asked.result);
  done.onerror = done.onabort = reject;
}));
const waiting = () => store(items => items.getAll(), "readonly");
const put = item => store(items => items.put(item));
const drop = id => store(items => items.delete(id));
const ours = items => items.filter(item => item.match === here);
const projected = items => ours(items).reduce((n, item) => n + (item.kind === "hands") - (item.kind === "undo" && item.number > 0), counted);
// From `count` on, a hand expects the next number and an undo the last; each gets a new token.
function renumber(items, count) {
  for (const item of items) {
    const fields = new URLSearchParams(item.body);
    if (item.kind === "hands") item.number = ++count;
    if (item.kind === "undo" && fields.has("expected")) item.number = count--;
    if (item.kind !== "edit" && item.number) fields.set("expected", item.number);
    fields.set("token", Array.from(crypto.getRandomValues(new Uint8Array(16)), b => b.toString(36)).join(""));
    item.body = String(fields);
  }
}

async function send(item) {
  try {
    const answer = await fetch(item.url, {method: "POST", body: new URLSearchParams(item.body), redirect: "manual"});
    if (answer.type === "opaqueredirect" || answer.ok) return DONE;
    if (answer.status >= 500 || answer.headers.has("Retry-After")) return AWAY;
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = answer.status === 400 && !item.renewed && page.querySelector("[name=csrf_token]");
    if (!fresh) return {status: answer.status, page};
    item.body = item.body.replace(/csrf_token=[^&]*/, "csrf_token=" + encodeURIComponent(fresh.value));
    item.renewed = true;  // it waited past its CSRF token's life: once more with a fresh one
    return send(item);
  } catch (error) {
    return AWAY;
  }
}

// In order; a refused change holds back its match's later ones until the table decides.
async function flush() {
  if (sending) return again = true;
  sending = true;
  again = false;
  let moving = false, away = false;
  const blocked = new Set();
  try {
    for (const item of await waiting()) {
      if (item.problem || blocked.has(item.match)) {
        blocked.add(item.match);
        continue;
      }
      const answer = await send(item);
      if (answer === AWAY) {
        away = true;
        break;
      }
      if (answer === DONE) {
        await drop(item.id);
      } else {
        const said = answer.page.querySelector(".banner-error, main > h1 + p");
        const next = answer.page.querySelector("form.hand-form[action$='/hands'] [name=expected]");
        item.problem = said ? said.textContent.trim() : `Refused (${answer.status}).`;
        item.next = next ? +next.value : 0;
        item.conflict = item.kind === "hands" && answer.status === 409 && item.next > 0;
        await put(item);
        blocked.add(item.match);
      }
      moving = moving || item.match === here;
    }
  } finally {
    sending = false;
  }
  clearTimeout(timer);
  wait = away ? Math.min(wait * 2, 60000) : 2000;
  if (away || again) timer = setTimeout(flush, away ? wait : 0);
  if (moving) location.replace("/matches/" + here);  // the new score, or the table's choice
  return moving;
}

// A page the phone kept names its version: once the server answers, a newer score replaces it.
function catchUp() {
  fetch(`/matches/${here}/events?version=${version}&wait=1`).then(news => news.text())
    .then(text => text.includes("event: change") && location.reload(), () => 0);
}

function show(items) {
  const mine = ours(items), n = mine.length, stuck = mine.find(item => item.problem);
  if (board) board.classList.toggle("not-counted", n > 0);
  if (!box) {
    box = document.createElement("section");
    box.id = "outbox";
    box.setAttribute("aria-label", "Waiting to be sent");
    box.innerHTML = '<p class="banner waiting" role="status"></p><div></div>';
    board ? board.before(box) : $("main").prepend(box);
  }
  box.hidden = !n;
  box.firstChild.textContent = `${n} ${mine.every(item => item.kind === "hands") ? "hand" : "change"}${n > 1 ? "s" : ""}`
    + ` waiting to be sent: the score does not count ${n > 1 ? "them" : "it"} yet.`;
  box.lastChild.innerHTML = stuck ? `<div class="banner-error" role="alert"><p></p>${stuck.conflict ? `<button
    type="button" data-keep>Record mine as hand ${stuck.next}</button> ` : ""}<button type="button">Drop mine</button></div>` : "";
  if (stuck) box.querySelector("[role=alert] p").textContent = `${stuck.problem} Not counted: yours, ${stuck.kind === "hands"
    ? "hand " + stuck.number : "the " + stuck.kind}.`;
  number(projected(items));
}

// The forms name the hand after the waiting ones (the dealer is the server's to say).
function number(count) {
  const retitle = (element, n) => { element.textContent = element.firstChild.textContent.replace(/\d+/, n).trim(); };
  if (hand) {
    hand.elements.expected.value = count + 1;
    retitle(hand.querySelector("h2"), count + 1);
    retitle(hand.querySelector("[type=submit]"), count + 1);
  }
  if (undoing) {
    retitle(undo.querySelector("button"), count);
    undo.hidden = count < 1;
  }
}

async function decide(keep) {
  const mine = ours(await waiting()), at = mine.findIndex(item => item.problem), stuck = mine[at], rest = mine.slice(at + 1);
  keep ? rest.unshift(stuck) : await drop(stuck.id);
  if (stuck.next) renumber(rest, stuck.next - 1);
  delete stuck.problem;
  for (const item of rest) await put(item);
  (await flush()) || show(await waiting());
}

async function hold(form, found) {
  const items = await waiting(), match = +found[1], kind = found[3] ? "edit" : found[2];
  const item = {match, kind, url: found[0], number: +found[3] || 0, body: String(new URLSearchParams(new FormData(form)))};
  renumber([item], projected(items));
  item.id = await put(item);
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist();
  if (!items.some(other => other.match === match)) {
    const answer = await send(item);
    if (answer !== AWAY) {
      await drop(item.id);
      // Refused: the server's own page says why, as without the outbox.
      return answer === DONE ? location.assign("/matches/" + match) : HTMLFormElement.prototype.submit.call(form);
    }
  }
  if (kind === "hands") form.reset();
  show(await waiting());
  scrollTo(0, 0);
  clearTimeout(timer);
  timer = setTimeout(flush, wait);
}

if (navigator.serviceWorker && isSecureContext) navigator.serviceWorker.register("/sw.js").catch(() => 0);
document.addEventListener("submit", event => {
  const form = event.target, found = new URL(form.action).pathname.match(WRITES);
  if (!found || form.method !== "post") return;
  event.preventDefault();
  if (form.dataset.sending) return;  // a double tap
  form.dataset.sending = 1;
  hold(form, found).catch(() => HTMLFormElement.prototype.submit.call(form)).finally(() => delete form.dataset.sending);
});
document.addEventListener("click", event => {
  const button = event.target.closest("#outbox button");
  if (button) decide(button.hasAttribute("data-keep"));
});
addEventListener("online", () => flush().then(moved => moved || !version || catchUp()));
waiting().then(items => ours(items).length && show(items)).then(flush, () => 0);
