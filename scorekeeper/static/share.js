// The Share page's Copy and Share buttons, added beside each link (without this script the links
// are still there to select). A plain-HTTP address on the table's Wi-Fi has neither the Clipboard
// API nor Web Share (both need HTTPS): the link is then copied the old way, and Share is left out.
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
    var name = box.getAttribute("aria-label");
    var copied = function () { say(name + " copied."); };
    var bar = document.createElement("div");
    bar.className = "actions";
    bar.appendChild(button("Copy " + name.toLowerCase(), function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(box.value).then(copied, function () {
          if (copyBySelecting(box)) copied(); else say("Select the link and copy it.");
        });
      } else if (copyBySelecting(box)) copied();
      else say("Select the link and copy it.");
    }));
    if (navigator.share) {
      bar.appendChild(button("Share " + name.toLowerCase(), function () {
        navigator.share({title: document.title, text: box.dataset.share, url: box.value}).catch(function () {});
      }));
    }
    box.parentNode.insertAdjacentElement("afterend", bar);
  });
})();
