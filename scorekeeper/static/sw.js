// The service worker keeps the app's CSS and scripts, the match pages opened and the rules pages seen:
// the network's answer first, the kept copy when the server does not answer (or is too slow).
const CACHE = "scorekeeper-1", PAGES = 80, PATIENCE = 4000;
const SHELL = ["app.css", "print.css", "match.js", "watch.js", "counter.js", "outbox.js", "icon.svg"];
const KEPT = /^\/(static\/.*|rules\/?.*|matches\/\d+(\/(watch|hands|finish|hands\/\d+\/edit))?|)$/;

// The network's answer, kept before it is handed on (so a page offline the next moment finds it).
const keep = request => fetch(request).then(answer => {
  if (!answer.ok || /no-store/.test(answer.headers.get("Cache-Control"))) return answer;
  const copy = answer.clone();
  return caches.open(CACHE).then(cache => cache.put(request, copy).then(() => {
    cache.keys().then(keys => keys.slice(0, -PAGES).forEach(key => cache.delete(key)));  // the oldest go
  })).then(() => answer, () => answer);
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
self.onactivate = event => event.waitUntil(clients.claim());
self.onfetch = event => {
  const request = event.request, url = new URL(request.url);
  if (request.method === "GET" && url.origin === location.origin && KEPT.test(url.pathname)) {
    event.respondWith(newest(request));
  }
};
