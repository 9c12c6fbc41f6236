// The outbox's part on every page but the rules'. The outbox itself (outbox.js, 13 KB) is a quarter
// of what a long list may weigh with its CSS and JS (20 KB), so it comes only where it has work: on a
// page with a form it keeps (a hand, an edit, an undo, a finish), and on any page while a change
// waits on this phone, which is then sent (and shown on its match's page) whatever page is opened.
const KEPT_FORMS = "form.hand-form, form[action$='/undo'], form[action$='/finish']";  // its WRITES
const version = (document.querySelector("meta[name=match-version]") || {}).content;

// Whether a change waits, read from the outbox's store without making it (outbox.js makes it).
const waits = () => new Promise((resolve, reject) => {
  const asked = indexedDB.open("scorekeeper");
  asked.onupgradeneeded = () => asked.transaction.abort();  // no database yet: nothing ever waited
  asked.onerror = reject;
  asked.onsuccess = () => {
    const counted = asked.result.transaction("outbox").objectStore("outbox").count();
    counted.onsuccess = () => resolve(counted.result > 0);
    counted.onerror = reject;
    asked.result.close();  // once the count is read: left open, it would block a new version of the store
  };
});

const outbox = (document.querySelector(KEPT_FORMS) ? Promise.resolve(true) : waits())
  .then(needed => needed && import("./outbox.js")).catch(() => null);

// A page the phone kept names its version: once the server answers, a newer score replaces it.
function catchUp() {
  const match = location.pathname.match(/^\/matches\/(\d+)/)[1];
  fetch(`/matches/${match}/events?version=${version}&wait=1`).then(news => news.text())
    .then(text => text.includes("event: change") && location.reload(), () => 0);
}

if (navigator.serviceWorker && isSecureContext) navigator.serviceWorker.register("/sw.js").catch(() => 0);
// Back online: what waits is sent first (that may already have moved this page on to the new score).
addEventListener("online", () => outbox.then(loaded => loaded && loaded.flush())
  .then(moved => moved || !version || catchUp()));
