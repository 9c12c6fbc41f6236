// The Share page's Copy and Share buttons, added beside each link (without this script the links
// are still there to select). Their words are the page's (data-copy, data-send, data-copied and the
// section's data-select). A plain-HTTP address on the table's Wi-Fi has neither the Clipboard API
// nor Web Share (both need HTTPS): the link is then copied the old way, and Share is left out.
(function () {
  var said = document.getElementById("share-said");
  function say(text) { if (said) said.textContent = text; }
  function copyBySelecting(box) {
    box.focus();
    box.select();
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }
  function button(text, act) {
    var made = document.createElement("button");
    made.type = "button";
    made.textContent = text;
    made.addEventListener("click", act);
    return made;
  }
  document.querySelectorAll("input[data-share]").forEach(function (box) {
    var copied = function () { say(box.dataset.copied); };
    var failed = function () { say(said.dataset.select); };
    var bar = document.createElement("div");
    bar.className = "actions";
    bar.appendChild(button(box.dataset.copy, function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(box.value).then(copied, function () {
          if (copyBySelecting(box)) copied(); else failed();
        });
      } else if (copyBySelecting(box)) copied();
      else failed();
    }));
    if (navigator.share) {
      bar.appendChild(button(box.dataset.send, function () {
        navigator.share({title: document.title, text: box.dataset.share, url: box.value}).catch(function () {});
      }));
    }
    box.parentNode.insertAdjacentElement("afterend", bar);
  });
})();
