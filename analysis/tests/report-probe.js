// report-probe.js: measures a rendered report in the browser, for the
// browser test (56-report-browser.test inserts it into a copy of the
// page). On load it writes, as JSON into <pre id="rbprobe">:
//  - viewport: the window's width and height;
//  - wide: elements whose right edge lies beyond the window (tag, id or
//    class, right edge), and the page's scroll width;
//  - broken_images: images that did not load;
//  - sections: per section with a figure, how far below the section's
//    top its first figure starts;
//  - findings_top, first_headline_top: where the Findings and the first
//    headline figure start (the first screen is the window's height).
window.addEventListener("load", function () {
  var W = window.innerWidth, H = window.innerHeight;
  var out = {viewport: [W, H], wide: [], broken_images: [], sections: []};
  out.scroll_width = document.documentElement.scrollWidth;
  var all = document.body.getElementsByTagName("*");
  for (var i = 0; i < all.length; i++) {
    var el = all[i], r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;   // not rendered (folded)
    if (r.right > W + 1) {
      out.wide.push({tag: el.tagName.toLowerCase(), id: el.id || "", cls: el.className || "", right: Math.round(r.right)});
    }
  }
  var imgs = document.images;
  out.images = imgs.length;
  for (var j = 0; j < imgs.length; j++) {
    if (!imgs[j].complete || imgs[j].naturalWidth === 0) out.broken_images.push(imgs[j].getAttribute("src"));
  }
  var secs = document.querySelectorAll("section");
  for (var k = 0; k < secs.length; k++) {
    var img = secs[k].querySelector("figure img");
    if (!img) continue;
    out.sections.push({id: secs[k].id, first_figure_offset: Math.round(img.getBoundingClientRect().top - secs[k].getBoundingClientRect().top)});
  }
  var f = document.getElementById("findings");
  out.findings_top = f ? Math.round(f.getBoundingClientRect().top + window.scrollY) : null;
  var h = document.querySelector(".headline img, .headline .card");
  out.first_headline_top = h ? Math.round(h.getBoundingClientRect().top + window.scrollY) : null;
  var pre = document.createElement("pre");
  pre.id = "rbprobe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
