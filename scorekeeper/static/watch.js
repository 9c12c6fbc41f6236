// A match page follows the match, on a watching phone and on a scoring one alike: the server sends
// one event when the match changes (or nothing within a short wait), and the page reloads to show
// the new score and the form for the right hand. Not while the table has something on a form (a
// hand being entered, a refused one kept, a table code being typed): a reload would wipe it, so the
// banner says the score moved (its words are the page's, data-moved) and offers to refresh.
(function () {
  var banner = document.querySelector("[data-watch]");
  if (!banner || !("EventSource" in window)) return;
  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      var chosen = [].filter.call(field.options, function (o) { return o.defaultSelected; }).pop() || field.options[0];
      return field.value !== (chosen ? chosen.value : "");
    }
    return field.type !== "hidden" && "defaultValue" in field && field.value !== field.defaultValue;
  }
  function typing() {
    var active = document.activeElement;
    if (active && active.form && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) && !/^(submit|button)$/.test(active.type)) return true;
    if (document.querySelector("main .banner-error, #outbox:not([hidden])")) return true;
    return [].some.call(document.querySelectorAll("main form"), function (form) {
      return [].some.call(form.elements, changed);
    });
  }
  var source = new EventSource(banner.dataset.watch);
  // A page whose form is posted the ordinary way follows nothing more: a reload now would cancel
  // that navigation, and with it the answer the table is waiting for.
  document.addEventListener("submit", function (event) { if (!event.defaultPrevented) source.close(); });
  source.addEventListener("change", function () {
    if (document.querySelector("form[data-sending]")) return;  // this phone's own change: its answer moves the page
    source.close();
    if (!typing()) return location.reload();
    if (banner.dataset.moved) banner.firstChild.textContent = banner.dataset.moved + " ";
    banner.hidden = false;
  });
})();
