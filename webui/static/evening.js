// The evening page: its games, who owes whom, the lives chart and the picture to share; read
// again from /api/evening whenever the table changes (an undo reaches every phone at once).
"use strict";

const evening = { version: null, view: null, busy: false };

async function drawEvening(state) {
  if (state.version === evening.version) return;
  evening.version = state.version;
  const answer = await fetch(inLang("/api/evening"));
  if (!answer.ok) {
    $("#ev-games").replaceChildren(el("li", {}, W.no_game));
    return;
  }
  const view = await answer.json();
  if (view.version < evening.version) return; // a newer change is already on its way
  evening.view = view;
  $("#ev-title").textContent = view.title.text;
  $("#ev-games").replaceChildren(...view.games.map((g) =>
    el("li", { class: g.over ? "over" : "in-play" }, g.text)));
  $("#ev-net").replaceChildren(...view.net.map((row) =>
    el("tr", { class: row.cents > 0 ? "up" : row.cents < 0 ? "down" : "" },
      el("th", {}, row.player), el("td", {}, row.text.slice(row.player.length + 1)))));
  $("#ev-payments").replaceChildren(...(view.payments.length
    ? view.payments.map((p) => el("li", {}, p.text))
    : [el("li", {}, W.ev_settled)]));
  $("#ev-next").disabled = !view.over;
  $("#ev-anyway").hidden = view.over;
  $("#ev-next-note").textContent = view.next_dealer ? `${W.ev_dealer_next}: ${view.next_dealer}` : "";
  const form = $("#ev-change");
  if (!form.players.value) form.players.value = view.next_players.join("\n");
  if (document.activeElement !== form.stake) form.stake.value = view.next_stake;
  drawDeciding(view);
  const svg = await (await fetch(inLang(`/serata/chart.svg?v=${view.version}`))).text();
  const chart = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  chart.removeAttribute("width");
  chart.removeAttribute("height");
  $("#ev-chart").replaceChildren(document.importNode(chart, true));
  $("#ev-chart-title").textContent = view.chart.title.text;
  $("#ev-picture").src = inLang(`/serata/picture.svg?v=${view.version}`);
}

function drawDeciding(view) {
  const shown = view.games.filter((g) => g.deciding).map((g) => {
    const d = g.deciding;
    const losers = new Set(d.losers);
    return el("article", { class: "ev-deciding" },
      el("h3", {}, `${W.ev_game} ${g.number} · ${W.hand} ${d.hand}`),
      el("p", { class: "says" }, d.says),
      el("div", { class: "vcards" }, d.cards.map((c) =>
        el("figure", { class: losers.has(c.player) ? "vcard loser" : "vcard" }, cardImg(c.code, cardName(c)),
          el("figcaption", {}, el("b", {}, c.player))))),
      d.evidence ? el("img", { class: "evidence", src: d.evidence, alt: W.evidence, loading: "lazy" }) : null);
  });
  $("#ev-deciding").replaceChildren(...(shown.length ? shown : [el("p", { class: "sub" }, W.nothing_yet)]));
}

// The picture as a PNG drawn by the browser from the server's SVG: shared where the phone can,
// saved otherwise.
async function eveningPng() {
  const image = new Image();
  image.src = inLang(`/serata/picture.svg?v=${evening.version}`);
  await image.decode();
  const canvas = el("canvas", { width: image.naturalWidth, height: image.naturalHeight });
  canvas.getContext("2d").drawImage(image, 0, 0);
  return new Promise((done) => canvas.toBlob(done, "image/png"));
}

async function shareEvening() {
  const png = await eveningPng();
  const file = new File([png], "saltacavallo-serata.png", { type: "image/png" });
  if (navigator.canShare && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: evening.view.title.text });
      return;
    } catch (err) {
      if (err.name === "AbortError") return;
    }
  }
  const link = el("a", { href: URL.createObjectURL(png), download: file.name });
  document.body.append(link);
  link.click();
  link.remove();
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.body.dataset.page !== "evening") return;
  // the next game: the players written below (the same ones unless changed there)
  const next = (anyway) => {
    const players = $("#ev-change").players.value.split("\n").map((n) => n.trim()).filter(Boolean);
    return act("/api/evening/next", players.length ? { players, anyway } : { anyway });
  };
  $("#ev-next").addEventListener("click", () => next(false));
  $("#ev-anyway").addEventListener("click", () => {
    if (window.confirm(W.ev_confirm_anyway)) next(true);
  });
  $("#ev-change").addEventListener("submit", (event) => {
    event.preventDefault();
    act("/api/evening/stake", { stake: Number(event.target.stake.value) });
  });
  $("#ev-share").addEventListener("click", () => shareEvening().catch((err) => toast(err.message, true)));
  $("#ev-import").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file && window.confirm(W.ev_confirm_import)) await act("/api/evening", await file.text());
    event.target.value = "";
  });
});
