// The service worker keeps the app's CSS and scripts, the match pages opened and the rules pages seen:
// the network's answer first, the kept copy when the server does not answer (or is too slow).
const CACHE = "scorekeeper-2", PAGES = 80, PATIENCE = 4000;  // 2: pages kept before held table codes
const SHELL = ["app.css", "print.css", "match.js", "watch.js", "cards.js", "piles.js", "palette.js", "counter.js",
  "outbox-loader.js", "outbox.js", "icon.svg"];
const KEPT = /^\/(static\/.*|rules\/?.*|matches\/\d+(\/(watch|hands|finish|hands\/\d+\/edit))?|)$/;

// The network's answer, kept before it is handed on (so a page offline the next moment finds it).
// A no-store page is never kept, but for a scoring page: kept with its table code taken out.
const PRIVATE = /<p class="table-code" data-private>[\s\S]*?<\/p>/g;
const stripped = answer => answer.clone().text()
  .then(text => new Response(text.replace(PRIVATE, ""), {status: answer.status, headers: answer.headers}));
const store = (request, copy) => caches.open(CACHE).then(cache => cache.put(request, copy).then(() => {
  cache.keys().then(keys => keys.slice(0, -PAGES).forEach(key => cache.delete(key)));  // the oldest go
}));
const keep = request => fetch(request).then(answer => {
  const unkept = /no-store/.test(answer.headers.get("Cache-Control"));
  if (!answer.ok || (unkept && answer.headers.get("Scorekeeper-Offline-Copy") !== "without-table-code")) return answer;
  return (unkept ? stripped(answer) : Promise.resolve(answer.clone())).then(copy => store(request, copy))
    .then(() => answer, () => answer);
});

const newest = request => new Promise(resolve => {
  const kept = () => caches.match(request).then(copy => copy && resolve(copy));
  const timer = setTimeout(kept, PATIENCE);
  keep(request).then(resolve, () => kept().then(() => resolve(Response.error()))).finally(() => clearTimeout(timer));
});

// The page that installed us was loaded before we ran: fetched again, to be kept.
self.oninstall = event => event.waitUntil(Promise.all(SHELL.map(name => keep("/static/" + name).catch(() => 0)))
  .then(() => clients.matchAll({includeUncontrolled: true}))
  .then(pages => Promise.all(pages.filter(page => KEPT.test(new URL(page.url).pathname))
    .map(page => keep(page.url).catch(() => 0))))
  .then(() => skipWaiting()));
self.onactivate = event => event.waitUntil(caches.keys()
  .then(names => Promise.all(names.filter(name => name !== CACHE).map(name => caches.delete(name))))
  .then(() => clients.claim()));
self.onfetch = event => {
  const request = event.request, url = new URL(request.url);
  if (request.method === "GET" && url.origin === location.origin && KEPT.test(url.pathname)) {
    event.respondWith(newest(request));
  }
};
