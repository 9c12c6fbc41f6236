// The outbox: a hand, edit, undo or finish waits on the phone (IndexedDB) until the server answers it,
// with the hand number it expects and a one-time token (a token seen before gets its first answer).
// Only a server that gives no answer makes a change wait: no connection, a time-out, or 408, 429,
// 502, 503, 504. Any other answer is the server's word: a refusal is shown at once, never queued.
// Every text comes from the page (#outbox-words, in the table's language). A module, imported by
// outbox-loader.js where it has work: a browser too old for modules posts the forms as ever.
const $ = selector => document.querySelector(selector);
const WRITES = /^\/matches\/(\d+)\/(hands|hands\/(\d+)\/edit|undo|finish)$/;
const AWAY_STATUSES = [408, 429, 502, 503, 504], PATIENCE = 15000;
const here = +(location.pathname.match(/^\/matches\/(\d+)/) || [])[1] || 0;
const hand = $("form.hand-form[action$='/hands']"), undo = $(".actions form[action$='/undo']");
const board = $("section.board"), undoing = undo && undo.elements.expected;
const counted = undoing ? +undoing.value : hand ? hand.elements.expected.value - 1 : 0;
const words = JSON.parse(($("#outbox-words") || {}).textContent || "null");
let wait = 2000, timer, box, fixing;

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
const token = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), b => b.toString(36)).join("");
// From `count` on, a hand expects the next number and an undo the last; each gets a new token.
function renumber(items, count) {
  for (const item of items) {
    const fields = new URLSearchParams(item.body);
    if (item.kind === "hands") item.number = ++count;
    if (item.kind === "undo" && fields.has("expected")) item.number = count--;
    if (item.kind !== "edit" && item.number) fields.set("expected", item.number);
    fields.set("token", token());
    item.body = String(fields);
  }
}

// {done}, {away, after: seconds the server asked for}, or the refusal {status, page}.
async function send(item) {
  try {
    const answer = await fetch(item.url, {method: "POST", body: new URLSearchParams(item.body), redirect: "manual",
                                          signal: AbortSignal.timeout(PATIENCE)});
    if (answer.type === "opaqueredirect" || answer.ok) return {done: true};
    if (AWAY_STATUSES.includes(answer.status)) return {away: true, after: +answer.headers.get("Retry-After") || 0};
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = answer.status === 400 && !item.renewed && page.querySelector("[name=csrf_token]");
    if (!fresh) return {status: answer.status, page};
    item.body = item.body.replace(/csrf_token=[^&]*/, "csrf_token=" + encodeURIComponent(fresh.value));
    item.renewed = true;  // it waited past its CSRF token's life: once more with a fresh one
    return send(item);
  } catch (error) {
    return {away: true, after: 0};
  }
}

// A change refused after it waited: the server's own words, and the hand number it expects now.
function refused(item, answer) {
  const said = answer.page.querySelector(".banner-error, main > h1 + p");
  const next = answer.page.querySelector("form.hand-form[action$='/hands'] [name=expected]");
  item.problem = said ? said.textContent.trim() : (words ? words.refused : "{status}").replace("{status}", answer.status);
  item.next = next ? +next.value : 0;
  item.conflict = item.kind === "hands" && answer.status === 409 && item.next > 0;
}

// One thing at a time: sending what waits and the table's choices never read the outbox half-changed.
let chain = Promise.resolve();
function serial(work) {
  const run = chain.then(work);
  chain = run.catch(() => 0);
  return run;
}

// In order; a refused change holds back its match's later ones until the table decides. True when
// this page's match moved (the page is then replaced by the new score, or the table's choice).
// The loader calls it when the phone is back online.
export const flush = () => serial(async () => {
  let moving = false, away = null;
  const blocked = new Set();
  for (const item of await waiting()) {
    if (item.problem || blocked.has(item.match)) {
      blocked.add(item.match);
      continue;
    }
    const answer = await send(item);
    if (answer.away) {
      away = answer;
      break;
    }
    if (answer.done) {
      await drop(item.id);
    } else {
      refused(item, answer);
      await put(item);
      blocked.add(item.match);
    }
    moving = moving || item.match === here;
  }
  clearTimeout(timer);
  wait = away ? Math.max(Math.min(wait * 2, 60000), away.after * 1000) : 2000;
  if (away) timer = setTimeout(flush, wait);
  if (moving) location.replace("/matches/" + here);
  return moving;
});

const worded = (text, values) => Object.entries(values).reduce((done, [name, value]) => done.replace(`{${name}}`, value), text);
const counting = (texts, n) => worded(texts[new Intl.PluralRules(document.documentElement.lang).select(n)] || texts.other, {n});

function what(item) {
  if (item.kind === "hands") return worded(words.hand, {number: item.number});
  if (item.kind === "edit") return worded(words.edit, {number: item.number});
  if (item.kind === "undo") return item.number ? worded(words.undo, {number: item.number}) : words.undo_finish;
  return words.finish;
}

function button(text, act, item) {
  const made = document.createElement("button");
  Object.assign(made, {type: "button", textContent: text});
  Object.assign(made.dataset, {act, id: item.id});
  return made;
}

// The ways out of a waiting change: the stuck one's as its refusal allows, Drop for one behind it,
// Send again and Drop for one waiting for the connection.
function choices(item, stuck) {
  if (!stuck) return [button(words.send_again, "send", item), button(words.drop, "drop", item)];
  if (item !== stuck) return [button(words.drop, "drop", item)];
  if (item.conflict) return [button(worded(words.keep, {number: item.next}), "keep", item), button(words.drop_mine, "drop", item)];
  const first = item.kind === "hands" && hand ? button(words.fix, "fix", item) : button(words.send_again, "send", item);
  return [first, button(words.drop, "drop", item)];
}

// Every waiting change of this match, with what it is, why it waits, and its ways out.
function show(items) {
  const mine = ours(items), n = mine.length, stuck = mine.find(item => item.problem);
  if (board) board.classList.toggle("not-counted", n > 0);
  if (!words) return;
  if (!box) {
    box = document.createElement("section");
    box.id = "outbox";
    box.setAttribute("aria-label", words.region);
    box.innerHTML = '<p class="banner waiting" role="status"></p><ol class="waiting-list"></ol>';
    board ? board.before(box) : $("main").prepend(box);
  }
  box.hidden = !n;
  box.firstChild.textContent = counting(mine.every(item => item.kind === "hands") ? words.hands_waiting : words.changes_waiting, n);
  box.lastChild.replaceChildren(...mine.map((item, at) => {
    const row = document.createElement("li"), said = document.createElement("div"), actions = document.createElement("div");
    const name = document.createElement("strong"), why = document.createElement("p");
    name.textContent = what(item);
    why.textContent = item.problem || (stuck && at > mine.indexOf(stuck) ? words.behind : words.no_connection);
    actions.className = "actions";
    actions.append(...choices(item, stuck));
    said.append(name, why, actions);
    if (item === stuck) said.setAttribute("role", "alert");
    row.append(said);
    row.classList.toggle("banner-error", item === stuck);
    return row;
  }));
  number(fixing ? fixing.number - 1 : projected(items));
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

// The hand form filled with a refused hand's values, to put right and send in its place.
function fill(form, body) {
  form.reset();
  for (const [name, value] of new URLSearchParams(body)) {
    if (["csrf_token", "token", "expected"].includes(name)) continue;
    for (const field of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
      if (field.type === "checkbox" || field.type === "radio") field.checked = field.checked || field.value === value;
      else field.value = value;
    }
  }
  form.dispatchEvent(new Event("change", {bubbles: true}));
}

async function decide(act, id) {
  if (act === "fix") return serial(fix.bind(null, id));
  await serial(choose.bind(null, act, id));
  (await flush()) || show(await waiting());
}

async function fix(id) {
  const items = await waiting();
  fixing = ours(items).find(item => item.id === id);
  if (!fixing) return show(items);
  fill(hand, fixing.body);
  show(items);
  hand.scrollIntoView();
}

// Send again, Drop (and what follows a hand or an undo is numbered again from the count it leaves),
// or Record mine as the next hand (after a conflict: numbered from the server's count).
async function choose(act, id) {
  const mine = ours(await waiting()), at = mine.findIndex(item => item.id === id), item = mine[at];
  if (!item) return;
  const rest = mine.slice(at + 1), after = item.conflict ? item.next - 1 : item.number - (item.kind === "hands");
  const moves = item.kind === "hands" || (item.kind === "undo" && item.number > 0);
  let changed = [item];  // Send again: as it was, its refusal forgotten
  delete item.problem;
  if (act === "drop") {
    await drop(item.id);
    changed = moves ? rest : [];
  } else if (act === "keep") {
    changed = [item, ...rest];
  }
  if (act !== "send" && moves) renumber(changed, after);
  for (const one of changed) await put(one);
}

async function hold(form, found) {
  const match = +found[1], kind = found[3] ? "edit" : found[2];
  const item = {match, kind, url: found[0], number: +found[3] || 0, body: String(new URLSearchParams(new FormData(form)))};
  if (fixing && form === hand) {  // the refused hand put right: sent again in its own place
    Object.assign(item, {id: fixing.id, number: fixing.number});
    renumber([item], item.number - 1);
    fixing = null;
    await serial(() => put(item));
    if (await flush()) return true;
  } else {
    // Sent at once when nothing of this match waits before it; kept first, so a lost answer loses nothing.
    const answer = await serial(async () => {
      const items = await waiting();
      renumber([item], projected(items));
      item.id = await put(item);
      if (items.some(other => other.match === match)) return {away: true};
      const answer = await send(item);
      if (!answer.away) await drop(item.id);
      return answer;
    });
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist();
    if (!answer.away) {
      // Done: the new score. Refused: the server's own page says why, the values kept, as without the outbox.
      answer.done ? location.assign("/matches/" + match) : HTMLFormElement.prototype.submit.call(form);
      return true;  // the form stays locked until the page has changed
    }
  }
  if (kind === "hands") form.reset();
  show(await waiting());
  scrollTo(0, 0);
  clearTimeout(timer);
  timer = setTimeout(flush, wait);
  return false;
}

document.addEventListener("submit", event => {
  const form = event.target, found = new URL(form.action).pathname.match(WRITES);
  if (!found || form.method !== "post") return;
  event.preventDefault();
  if (form.dataset.sending) return;  // a double tap: the first is on its way
  form.dataset.sending = 1;
  hold(form, found).then(leaving => leaving || delete form.dataset.sending,
    () => HTMLFormElement.prototype.submit.call(form));
});
document.addEventListener("click", event => {
  const choice = event.target.closest("#outbox button[data-act]");
  if (choice) decide(choice.dataset.act, +choice.dataset.id);
});
waiting().then(items => ours(items).length && show(items)).then(flush, () => 0);
