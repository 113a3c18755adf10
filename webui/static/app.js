// Saltacavallo's pages: one live state from the server (SSE), drawn by each page.
"use strict";

const W = window.WORDS;
const LANG = window.LANG;
const PIN_KEY = "saltacavallo.pin";
const SOUND_KEY = "saltacavallo.sound";
const FRAME_MS = 100; // the phone camera sends at most about 10 frames a second
const JPEG_QUALITY = 0.7; // a 720p frame of about 100 kB: sharp enough to name the cards
const CAMERA_RETRY_MS = 2000; // a camera a call still holds is asked for again this often

const $ = (sel, root = document) => root.querySelector(sel);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The server words everything in the language this page asks in (`?lang=`: two pages open in
// two languages share one cookie): a sentence is `text` (a verdict's `says`, a refusal's
// `error`), a card's name `name`.
const inLang = (path) => `${path}${path.includes("?") ? "&" : "?"}lang=${LANG}`;
const cardName = (card) => (card ? card.name : "");
const cardImg = (code, title, cls = "card") =>
  el("img", { class: cls, src: `/cards/${code}.svg`, alt: title || code, title: title || code });

function toast(text, bad = false) {
  const box = $("#toast");
  box.textContent = text.charAt(0).toUpperCase() + text.slice(1); // a sentence on its own
  box.className = bad ? "toast bad" : "toast";
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), bad ? 6000 : 2500);
}

// -- changes need the table PIN ------------------------------------------------------------

function askPin(why) {
  const given = window.prompt((why ? why + "\n" : "") + W.pin_ask, "");
  if (given) localStorage.setItem(PIN_KEY, given.trim());
  return given ? given.trim() : null;
}

async function change(path, body, type = "application/json") {
  let pin = localStorage.getItem(PIN_KEY) || askPin();
  for (let attempt = 0; attempt < 3 && pin; attempt++) {
    const payload = body instanceof Blob || typeof body === "string" ? body : JSON.stringify(body ?? {});
    const answer = await fetch(inLang(path), {
      method: "POST", headers: { "X-Table-Pin": pin, "Content-Type": type }, body: payload,
    });
    const data = await answer.json().catch(() => ({}));
    if (answer.status === 403) {
      localStorage.removeItem(PIN_KEY);
      pin = askPin(data.error || W.pin_wrong);
      continue;
    }
    if (!answer.ok) throw new Error(data.error || answer.statusText);
    return data;
  }
  throw new Error(W.pin_wrong);
}

async function act(path, body, done) {
  try {
    const data = await change(path, body);
    toast(done || W.saved);
    return data;
  } catch (err) {
    toast(err.message, true);
    return null;
  }
}

// -- the live state ------------------------------------------------------------------------

function follow(onState) {
  let source = null;
  let delay = 500;
  const open = () => {
    source = new EventSource(inLang("/api/events"));
    source.onmessage = (msg) => {
      delay = 500;
      $("#offline").hidden = true;
      onState(JSON.parse(msg.data));
    };
    source.onerror = () => {
      $("#offline").hidden = false;
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 10000);
      }
    };
  };
  open();
}

// -- sound: the verdict spoken ------------------------------------------------------------

function speakerIcon(on) {
  const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  icon.setAttribute("viewBox", "0 0 24 24");
  icon.setAttribute("class", "icon");
  icon.innerHTML = '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>' + (on
    ? '<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>'
    : '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>');
  return icon;
}

const sound = {
  on: localStorage.getItem(SOUND_KEY) === "1",
  lastHand: null,
  show() {
    const button = $("#sound");
    button.replaceChildren(speakerIcon(this.on), this.on ? W.sound_on : W.sound_off);
    button.setAttribute("aria-pressed", String(this.on));
  },
  speak(text) {
    if (!this.on || !("speechSynthesis" in window)) return;
    const words = new SpeechSynthesisUtterance(text);
    words.lang = LANG === "it" ? "it-IT" : "en-GB";
    window.speechSynthesis.speak(words);
  },
  hear(state) {
    const latest = state.verdicts && state.verdicts[0];
    const hand = latest ? latest.hand : 0;
    if (this.lastHand !== null && hand > this.lastHand) this.speak(latest.says);
    this.lastHand = hand;
  },
};

function showWarnings(state, page) {
  const box = $("#warnings");
  const ask = page === "table" && !state.held && state.asked; // asked below, with its ways on
  const open = (state.warnings || []).filter((w) => !ask || w.id !== ask.id);
  box.hidden = open.length === 0;
  box.replaceChildren(...open.map((w) =>
    el("p", {}, "! ", w.text, " ", el("a", { href: "/storico" }, W.history))));
}

// -- the verdict of one hand ---------------------------------------------------------------

function verdictView(v, big = false) {
  const losers = new Set(v.losers);
  const photo = v.evidence
    ? el("a", { href: v.evidence, target: "_blank" }, el("img", { class: "evidence", src: v.evidence, alt: W.evidence, loading: "lazy" }))
    : el("p", { class: "no-photo" }, W.no_photo);
  const cards = v.cards.map((c) =>
    el("figure", { class: losers.has(c.player) ? "vcard loser" : "vcard" },
      cardImg(c.code, cardName(c)),
      el("figcaption", {}, el("b", {}, c.player), el("br"), cardName(c),
        losers.has(c.player) ? el("span", { class: "pays" }, W.loser) : null)));
  return [
    el("h2", {}, el("a", { href: `/mano/${v.hand}` }, `${W.hand} ${v.hand}`), " · ", W.dealer, ": ", v.dealer),
    el("p", { class: big ? "says big" : "says" }, v.says),
    el("div", { class: "vcards" }, cards),
    photo,
    v.swaps.length ? el("p", { class: "sub" }, `${W.swaps}: `, v.swaps.map((s) => `${s[0]} ⇄ ${s[1]}`).join(", ")) : null,
    v.decided && v.decided.length ? el("ul", { class: "by-hand" }, v.decided.map((d) => el("li", {}, d.text))) : null,
  ].filter(Boolean);
}

// -- Tavolo ---------------------------------------------------------------------------------

function seatPlace(i, n) {
  // Seating order is counterclockwise: seat 0 at the bottom, the next to its right on screen.
  const angle = (2 * Math.PI * i) / n;
  return { x: 50 + 37 * Math.sin(angle), y: 50 + 40 * Math.cos(angle) };
}

function coins(lives, start) {
  const row = el("span", { class: "coins", title: `${lives} ${W.lives}` });
  for (let i = 0; i < Math.max(lives, start); i++) row.append(el("i", { class: i < lives ? "coin" : "coin lost" }));
  return row;
}

function drawTable(state) {
  const held = state.notice && state.verdicts[0]; // the demo holds its last verdict: it heads the page
  $("#says").textContent = held ? `${W.hand} ${held.hand}: ${held.says}` : state.says;
  $("#phase").textContent = held ? W.verdict : state.phase ? W["phase_" + state.phase] : W.no_game;
  $("#notice").hidden = !state.notice;
  $("#notice").textContent = state.notice ? state.notice.text : "";
  drawHeld(state);
  drawAsked(state);
  drawDecided(state);
  const seen = seenSeats(state);
  const seats = $("#seats");
  const n = state.seats.length;
  const crowd = n > 10 ? "many" : n > 6 ? "some" : "few";
  seats.className = crowd;
  $("#table").className = `table ${crowd}`; // a longer table seats a crowd
  seats.replaceChildren(...state.seats.map((s, i) => {
    const at = seatPlace(i, n);
    const classes = ["seat", s.alive ? "" : "dead", s.turn ? "turn" : "", s.dealer ? "dealer" : ""].join(" ");
    const during = state.phase === "turns" || state.phase === "dealer";
    const value = s.shown ? Number.parseInt(s.shown, 10) : 0;
    const note = !s.alive ? W.dead : during && value === 10 ? W.wall : during && value === 9 ? W.jumped
      : s.turn ? W.your_turn : "";
    const now = seen[s.player];
    let card = s.card, name = s.card_name ? cardName(s.card_name) : "";
    if (now && now.face !== "unknown") {  // held: the card as the camera sees it now
      card = now.face === "up" ? (now.card || "back") : now.face === "down" ? "back" : null;
      name = now.name ? cardName(now.name) : "";
    }
    return el("div", { class: classes + (now ? " seen" : "") + (now && now.under ? " under" : ""),
      style: `left:${at.x}%;top:${at.y}%`, "data-player": s.player, "data-face": now ? now.face : null },
      card ? cardImg(card, name) : el("span", { class: "card-slot" }),
      now && name ? el("div", { class: "seen-name" }, name) : null,
      el("div", { class: "name" }, s.player, s.dealer ? el("span", { class: "mark", title: W.dealer }, "M") : null),
      coins(s.lives, state.start_lives || 0),
      note ? el("div", { class: "note" }, note) : null);
  }));
  const pot = state.pot;
  $("#pot").textContent = String(pot);
  $("#pot-coins").replaceChildren(...Array.from({ length: Math.min(pot, 24) }, () => el("i", { class: "coin" })));
  $("#pot-money").textContent = state.stake > 0 && pot > 0 ? `€ ${(pot * state.stake).toFixed(2).replace(".", LANG === "it" ? "," : ".")}` : "";
  const turn = $("#turn");
  turn.hidden = !state.turn;
  if (state.turn) {
    const who = state.turn.player, line = state.turn.line, at = line.lastIndexOf(who);
    turn.replaceChildren(el("p", { class: "who" }, line.slice(0, at), el("b", {}, who), line.slice(at + who.length)),
      el("p", { class: "why" }, state.turn.text));
  }
  const verdict = $("#verdict");
  const latest = state.verdicts[0];
  verdict.hidden = !latest;
  if (latest) verdict.replaceChildren(...verdictView(latest, ["deal", "over", "choose_dealer"].includes(state.phase)));
}

// -- a held hand: what was seen, what the rules say, the ways on ---------------------------
// (and a warning asked while the hand goes on: the same ways on, from the same desk)

const held = { id: null, chosen: {}, timer: null, ways: "" };
const asked = { id: null, chosen: {}, ways: "" };

function seenSeats(state) {
  // while a hand is held the table shows the cards as the camera sees them now
  const seen = {};
  for (const s of (state.held && state.held.seen) || []) seen[s.player] = s;
  return seen;
}

function wayButton(desk, label, body, cls = "button way") {
  return el("button", { class: cls, type: "button", onclick: async (e) => {
    e.currentTarget.disabled = true;
    await act(`/api/held/${desk.id}`, body);
    e.currentTarget.disabled = false;
  } }, label);
}

function writeForm(desk, way, deck) {
  const rows = way.cards.map((c) => {
    const code = desk.chosen[c.player] ?? c.card ?? "";
    const name = deck.find((d) => d.code === code);
    const pick = el("select", { name: c.player, disabled: c.fixed, "aria-label": `${W.card} ${c.player}`,
      onchange: (e) => { desk.chosen[c.player] = e.target.value; desk.again(); } },
      el("option", { value: "" }, W.choose_card),
      deck.map((d) => el("option", { value: d.code, selected: d.code === code }, cardName(d))));
    return el("label", { class: "write-seat", "data-player": c.player },
      code ? cardImg(code, name ? cardName(name) : code, "card small") : el("span", { class: "card-slot small" }),
      el("b", {}, c.player), pick);
  });
  return el("form", { class: "write", onsubmit: async (e) => {
    e.preventDefault();
    const cards = {};
    for (const c of way.cards) cards[c.player] = desk.chosen[c.player] ?? c.card ?? "";
    await act(`/api/held/${desk.id}`, { way: "write", cards });
  } }, el("p", { class: "sub" }, W.write_help), el("div", { class: "write-seats" }, rows),
  el("button", { class: "button way", type: "submit" }, way.text));
}

function wayView(desk, way, deck) {
  const button = (body, cls) => wayButton(desk, way.text, body, cls);
  if (way.way === "continue" || way.way === "noted") return button({ way: way.way });
  if (way.way === "swap") return button({ way: "swap", player: way.player, target: way.target });
  if (way.way === "draw" || way.way === "correct") return button({ way: way.way, player: way.player, card: way.card });
  if (way.way === "unseen") {
    return el("div", { class: "question" }, el("p", { class: "ask" }, way.text),
      el("div", { class: "answers" },
        wayButton(desk, way.yes.text, { way: "unseen", a: way.a, b: way.b, answer: "yes" }, "button way yes"),
        wayButton(desk, way.no.text, { way: "unseen", a: way.a, b: way.b, answer: "no" }, "button way no")));
  }
  if (way.way === "redeal") {
    return el("div", { class: "redeal" }, button({ way: "redeal" }, "button way danger"),
      el("p", { class: "sub" }, way.note.text));
  }
  if (way.way === "write") return writeForm(desk, way, deck);
  if (way.way === "seats") return el("a", { class: "button way", href: "/setup#tap-seats" }, way.text);
  return null;
}

function drawWays(box, h, desk) {
  const ways = JSON.stringify(h.ways);
  if (ways === desk.ways) return;  // the cards read for the written hand, the swaps still allowed
  desk.ways = ways;
  desk.again = () => $(".ways", box).replaceChildren(...h.ways.map((w) => wayView(desk, w, h.deck)).filter(Boolean));
  desk.again();
}

function drawHeld(state) {
  const box = $("#held");
  const h = state.held;
  box.hidden = !h;
  if (!h) {
    held.id = null;
    clearInterval(held.timer);
    return;
  }
  if (held.id !== h.id) {  // a new hold: what was chosen for the last one is forgotten
    held.id = h.id;
    box.dataset.id = h.id;
    held.chosen = {};
    held.ways = "";
    box.replaceChildren(
      el("h2", {}, W.held),
      el("p", { class: "rule" }),
      el("div", { class: "held-photos" },
        el("figure", {}, h.photo ? el("a", { href: h.photo, target: "_blank" }, el("img", { src: h.photo, alt: W.held_moment }))
          : el("p", { class: "no-photo" }, W.no_photo), el("figcaption", {}, W.held_moment)),
        el("figure", {}, el("img", { class: "now", alt: W.held_now }), el("figcaption", {}, W.held_now))),
      el("p", { class: "notice demo", hidden: true }),
      el("div", { class: "ways" }));
    const now = $(".now", box);
    const refresh = () => { now.src = `/api/live.jpg?t=${Date.now()}`; };
    now.onerror = () => { now.parentNode.hidden = true; };  // no camera picture (yet)
    now.onload = () => { now.parentNode.hidden = false; };
    refresh();
    clearInterval(held.timer);
    held.timer = setInterval(refresh, 1000);
  }
  $(".rule", box).textContent = h.rule ? h.rule.text : "";
  $(".rule", box).hidden = !h.rule;
  const demo = $(".demo", box);
  demo.hidden = !h.demo;
  demo.textContent = h.demo ? h.demo.text : "";
  drawWays(box, h, held);
}

function drawAsked(state) {
  const box = $("#asked");
  const a = state.held ? null : state.asked;  // one question at a time: the held hand first
  box.hidden = !a;
  if (!a) {
    asked.id = null;
    return;
  }
  if (asked.id !== a.id) {
    asked.id = a.id;
    asked.chosen = {};
    asked.ways = "";
    box.dataset.id = a.id;
    box.replaceChildren(el("h2", {}, W.asked), el("p", { class: "says" }), el("div", { class: "ways" }));
  }
  $(".says", box).textContent = a.text;
  drawWays(box, a, asked);
}

function drawDecided(state) {
  const box = $("#decided");
  const d = state.decided;
  const settled = d && state.verdicts.some((v) => v.hand === d.hand);
  const show = d && !state.held && (d.undoable || (state.hand === d.hand && !settled));
  box.hidden = !show;
  if (!show) return;
  box.replaceChildren(el("p", { class: "says" }, d.text),
    d.undoable ? el("button", { class: "button take-back", type: "button", onclick: () =>
      act(`/api/decisions/${d.number}/undo`, {}) }, W.take_back) : null);
}

// -- Storico --------------------------------------------------------------------------------

function drawHistory(state) {
  const last = state.last_event;
  $("#last-event").textContent = last ? last.text : "—";
  $("#undo").disabled = !last;
  for (const select of document.querySelectorAll("select.players")) {
    const chosen = select.value;
    const blank = select.dataset.blank ? [el("option", { value: "" }, select.dataset.blank)] : [];
    select.replaceChildren(...blank, ...state.players.map((p) => el("option", { value: p, selected: p === chosen }, p)));
  }
  const warnings = state.warnings || [];
  $("#open-warnings").hidden = warnings.length === 0;
  $("#warning-list").replaceChildren(...warnings.map((w) =>
    el("li", {}, w.text, " ",
      el("button", { class: "button", type: "button", onclick: async () => {
        const how = window.prompt(W.how, W.resolve);
        if (how !== null) await act(`/api/warnings/${w.id}/resolve`, { how });
      } }, W.resolve))));
  const hands = $("#hands");
  if (!state.verdicts.length) hands.replaceChildren(el("p", { class: "empty" }, W.nothing_yet));
  else hands.replaceChildren(...state.verdicts.map((v) => el("article", { class: "panel verdict" }, verdictView(v),
    el("p", { class: "sub" }, `${W.lives_after}: `, Object.entries(v.lives).map(([p, n]) => `${p} ${n}`).join(" · "), ` · ${W.pot} ${v.pot}`))));
}

function historyPage() {
  $("#undo").addEventListener("click", async () => {
    if (window.confirm(`${W.undo_confirm}\n${$("#last-event").textContent}`)) await act("/api/undo", {});
  });
  $("#revive").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    await act("/api/corrections", { kind: "revive", dead: form.get("dead"), living: form.get("living") });
  });
  const send = (id, make) => $(id).addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await act("/api/corrections", make(new FormData(e.target)))) e.target.reset();
  });
  send("#fix-card", (f) => ({ kind: "correct", player: f.get("player"), card: String(f.get("card")).trim() }));
  send("#join", (f) => ({ kind: "join", player: String(f.get("player")).trim(), before: f.get("before") || null }));
  send("#leave", (f) => ({ kind: "leave", player: f.get("player") }));
  $("#event-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = new FormData(e.target).get("event");
    await act("/api/corrections", String(text));
  });
  $("#import").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file && window.confirm(W.confirm_new)) await act("/api/record", await file.text());
    e.target.value = "";
  });
}

// -- Setup ----------------------------------------------------------------------------------

const PRESETS = {
  napoli: { horse_chain: true, skip_wraps: true, dealer_selection: "second_denari", dealer_draw: "after_reveal", revival: "one_life", final_two: "play_out", dealer_rotation: "every_hand" },
  classica: { horse_chain: false, skip_wraps: false, dealer_selection: "second_denari", dealer_draw: "blind", revival: "off", final_two: "play_out", dealer_rotation: "every_hand" },
};

function setupPage() {
  const form = $("#setup");
  const names = () => form.players.value.split(/\n|,/).map((s) => s.trim()).filter(Boolean);
  const fillDealer = () => {
    const chosen = form.dealer.value;
    form.dealer.replaceChildren(el("option", { value: "" }, W.by_camera),
      ...names().map((p) => el("option", { value: p, selected: p === chosen }, p)));
  };
  const applyPreset = () => {
    for (const [key, value] of Object.entries(PRESETS[form.preset.value])) {
      if (typeof value === "boolean") form[key].checked = value;
      else form[key].value = value;
    }
  };
  form.players.addEventListener("input", fillDealer);
  form.preset.addEventListener("change", applyPreset);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!window.confirm(W.confirm_new)) return;
    const rules = {};
    for (const key of Object.keys(PRESETS.napoli)) rules[key] = form[key].type === "checkbox" ? form[key].checked : form[key].value;
    await act("/api/setup", {
      players: names(), rules, lives: Number(form.lives.value), stake: Number(form.stake.value || 0),
      dealer: form.dealer.value || null,
    });
  });
  setupPage.fillDealer = fillDealer;
  seatsTapping();
}

function seatsTapping() {
  const img = $("#tap");
  const marks = $("#tap-marks");
  let players = [];
  let taps = {};
  const next = () => players.find((p) => !(p in taps));
  const draw = () => {
    const w = img.naturalWidth || 1, h = img.naturalHeight || 1;
    marks.setAttribute("viewBox", `0 0 ${w} ${h}`);
    marks.replaceChildren(...Object.entries(taps).map(([p, [x, y]]) => {
      const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
      g.innerHTML = `<circle cx="${x}" cy="${y}" r="${w / 40}"/><text x="${x}" y="${y - w / 30}"></text>`;
      g.querySelector("text").textContent = p;
      return g;
    }));
    const who = next();
    $("#seat-next").textContent = who ? `${W.seats_next} ${who}` : players.length ? W.seats_done : "";
    $("#seats-save").disabled = !!who || !players.length;
  };
  const load = () => {
    const probe = new Image();
    probe.onload = () => { img.src = probe.src; img.hidden = false; $("#tap-empty").hidden = true; };
    probe.onerror = () => setTimeout(load, 3000);
    probe.src = `/api/live.jpg?t=${Date.now()}`;
  };
  img.addEventListener("load", draw);
  img.addEventListener("click", (e) => {
    const who = next();
    if (!who) return;
    const box = img.getBoundingClientRect();
    taps[who] = [Math.round((e.clientX - box.left) * img.naturalWidth / box.width), Math.round((e.clientY - box.top) * img.naturalHeight / box.height)];
    draw();
  });
  $("#seats-reset").addEventListener("click", () => { taps = {}; load(); draw(); });
  $("#seats-save").addEventListener("click", () =>
    act("/api/seats", { width: img.naturalWidth, height: img.naturalHeight, players: taps }));
  seatsTapping.players = (list) => { if (list.join() !== players.join()) { players = list; taps = {}; draw(); } };
  load();
}

// -- Live, the phone camera, one verdict ---------------------------------------------------

function drawLive(state) {
  $("#camera-state").textContent = W["cam_" + state.camera.state] || state.camera.state;
  $("#camera-message").textContent = state.camera.text || "";
  const rate = state.camera.rate;
  $("#camera-rate").textContent = rate === undefined ? "" : W.rate.replace("{rate}", rate) +
    (state.camera.needed ? ": " + W.rate_low.replace("{needed}", state.camera.needed) : "");
  $("#camera-rate").classList.toggle("low", Boolean(state.camera.needed));
  drawPhone(state.phone);
  const img = $("#live");
  if (img.dataset.on) return;
  fetch("/api/live.jpg", { method: "HEAD" }).then((r) => {
    if (!r.ok || img.dataset.on) return;
    img.dataset.on = "1";
    img.src = "/api/live.mjpg";
    img.hidden = false;
    $("#no-picture").hidden = true;
  });
}

// What the phone camera page last said with its pictures: their size (smaller on a slow link), the
// light, the battery.
function drawPhone(phone) {
  const line = $("#phone-line");
  line.hidden = !phone;
  if (!phone) return;
  const parts = [W.phone_size.replace("{width}", phone.width).replace("{height}", phone.height)];
  if (phone.slow) parts.push(W.link_slow);
  if (phone.battery !== undefined) {
    parts.push(W.battery.replace("{level}", phone.battery) + (phone.charging ? ` (${W.battery_charging})`
      : phone.battery_low ? `: ${W.battery_low}` : ""));
  }
  if (phone.light) parts.push(W["light_" + phone.light]);
  line.textContent = `${W.phone}: ${parts.join(" · ")}`;
  line.classList.toggle("low", Boolean(phone.slow || phone.battery_low || phone.light));
}

// Tells the server something that must go even as the page goes away (keepalive), with the PIN
// already given: nobody may be there to type it, and no answer is awaited. (sendBeacon cannot
// carry the PIN's header.)
function tell(path, body) {
  const pin = localStorage.getItem(PIN_KEY);
  if (!pin) return;
  fetch(path, {
    method: "POST", keepalive: true, body: JSON.stringify(body),
    headers: { "X-Table-Pin": pin, "Content-Type": "application/json" },
  }).catch(() => {});
}

// The view the companion reads, drawn over the camera's own picture: each place ringed (ticked in
// view, crossed where it is cut off), before the places are known the outline to keep the cards in,
// and the cards read; a phone leaning too far for a face to be named is told to rise.
function drawAim(aim) {
  const svg = $("#aim-marks");
  const say = $("#aim");
  if (!aim) { svg.replaceChildren(); say.hidden = true; return; }
  const ns = "http://www.w3.org/2000/svg";
  const mark = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    if (text) node.textContent = text;
    return node;
  };
  const { width, height } = aim;
  const font = Math.round(height / 14); // legible on a phone's screen
  const points = (list) => list.map((p) => p.join(",")).join(" ");
  const marks = [];
  if (aim.outline) marks.push(mark("polygon", { class: "outline", points: points(aim.outline) }));
  for (const c of aim.cards) {
    marks.push(mark("polygon", { class: `quad ${c.face}`, points: points(c.quad) }));
    const top = c.quad.reduce((a, p) => (p[1] < a[1] ? p : a));
    if (c.card) marks.push(mark("text", { class: "card", x: top[0], y: Math.max(font, top[1] - 6), "font-size": font * 0.8 }, cardName(c.card)));
  }
  const r = Math.round(height / 14);
  for (const s of aim.seats) {
    const x = Math.min(Math.max(s.x, r), width - r), y = Math.min(Math.max(s.y, r), height - r);
    marks.push(mark("circle", { class: `ring ${s.cut ? "cut" : "seen"}`, cx: x, cy: y, r }));
    marks.push(mark("text", { x, y: y + font / 3, "font-size": font }, `${s.cut ? "✗" : "✓"} ${s.player}`));
  }
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.replaceChildren(...marks);
  const cut = aim.seats.filter((s) => s.cut);
  say.className = "aim-say" + (aim.steep || cut.length ? " cut" : !aim.seats.length ? " before" : "");
  say.textContent = aim.steep ? W.aim_steep : !aim.seats.length ? W.aim_before : cut.length
    ? W.aim_cut.replace("{names}", cut.map((s) => `${s.player} (${W["edge_" + s.cut]})`).join(", "))
    : W.aim_all.replace("{n}", aim.seats.length);
  say.hidden = false;
}

function cameraPage() {
  if (!window.isSecureContext || !navigator.mediaDevices) {
    $("#camera-https").hidden = false;
    $("#camera-start").disabled = true;
    return;
  }
  const panel = $(".camera");
  const sizes = panel.dataset.sizes.split(",").map(Number); // long sides, largest first; the last is the floor
  const slowMs = Number(panel.dataset.slowMs), fastMs = Number(panel.dataset.fastMs);
  const video = $("#video");
  const canvas = document.createElement("canvas");
  // wanted: the camera was started and not stopped with the button; it comes back by itself
  let stream = null, timer = null, retry = null, lock = null, battery = null;
  let wanted = false, starting = false, sent = 0, step = 0, torch = false, chain = 0;
  let links = [], answered = [];
  const shown = () => document.visibilityState === "visible";
  const query = () => {
    const said = new URLSearchParams({ slow: step ? "1" : "0" });
    if (battery) { said.set("battery", battery.level); said.set("charging", battery.charging ? "1" : "0"); }
    return said.toString();
  };
  // the picture is made smaller when the link is slow, and larger again when it recovers
  const paced = (linkMs) => {
    links = [...links.slice(-9), linkMs];
    const middle = [...links.slice(-3)].sort((a, b) => a - b)[Math.min(1, links.length - 1)];
    if (links.length >= 3 && middle > slowMs && step < sizes.length - 1) { step += 1; links = []; }
    else if (links.length === 10 && Math.max(...links) < fastMs && step > 0) { step -= 1; links = []; }
  };
  const showPace = () => {
    const now = performance.now();
    answered = [...answered.filter((t) => now - t < 2000), now];
    const rate = Math.round(answered.length / 2);
    $("#camera-pace").textContent = "· " + W.pace.replace("{rate}", rate) + (step ? " · " + W.link_slow : "");
  };
  // One picture at a time: the server answers once its live loop has taken it, and the next is taken
  // then (FRAME_MS after the last at the soonest), so that the pictures come at the pace the loop
  // keeps and one is on its way while the loop reads the last. `chain` ends a restarted camera's old one.
  const next = (mine, ms) => {
    if (mine !== chain || !stream) return;
    clearTimeout(timer);
    timer = setTimeout(() => send(mine), Math.max(0, ms));
  };
  const send = (mine) => {
    // a track stopped by the browser may end without saying "ended"
    if (!stream.getVideoTracks().some((t) => t.readyState === "live")) return lost("stopped");
    if (!video.videoWidth) return next(mine, FRAME_MS);
    const taken = performance.now();
    const scale = Math.min(1, sizes[step] / Math.max(video.videoWidth, video.videoHeight));
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
    canvas.toBlob(async (blob) => {
      const began = performance.now();
      try {
        if (!blob) throw new Error(W.no_picture);
        const answer = await change("/api/frame?" + query(), blob, "image/jpeg");
        paced(performance.now() - began - (answer.waited || 0));
        $("#sent").textContent = String(++sent);
        $("#camera-note").textContent = `${canvas.width}×${canvas.height}`;
        showPace();
        if (stream) drawAim(answer.aim);
        $("#light").hidden = !answer.light;
        $("#light").textContent = answer.light ? W["light_" + answer.light] : "";
      } catch (err) {
        $("#camera-note").textContent = err.message;
        if (err.message === W.pin_wrong) stop();
      } finally {
        next(mine, FRAME_MS - (performance.now() - taken));
      }
    }, "image/jpeg", JPEG_QUALITY);
  };
  const awake = async () => { // the screen stays on while the camera runs, where the browser can
    let held = false;
    try {
      if (navigator.wakeLock) {
        lock = await navigator.wakeLock.request("screen");
        held = true;
      }
    } catch (err) { /* refused: the page says how to keep the screen on by hand */ }
    $("#camera-awake").hidden = held;
  };
  // the torch, where the camera has one (the track says so); kept on across a restart
  const lit = async (on) => {
    const track = stream && stream.getVideoTracks()[0];
    if (!track) return;
    try {
      await track.applyConstraints({ advanced: [{ torch: on }] });
      torch = on;
    } catch (err) { $("#camera-note").textContent = err.message; }
    $("#torch").textContent = torch ? W.torch_off : W.torch_on;
    $("#torch").setAttribute("aria-pressed", String(torch));
  };
  const torchOffered = () => {
    const track = stream.getVideoTracks()[0];
    const offered = Boolean(track && track.getCapabilities && track.getCapabilities().torch);
    $("#torch").hidden = !offered;
    if (offered && torch) lit(true);
  };
  const halt = () => {
    chain += 1;
    clearTimeout(timer);
    clearTimeout(retry);
    if (stream) stream.getTracks().forEach((t) => { t.onended = null; t.stop(); });
    stream = null;
    if (lock) lock.release().catch(() => {});
    lock = null;
    $("#torch").hidden = true;
  };
  const start = async (back) => {
    if (starting || stream) return;
    starting = true;
    let got = null;
    try {
      got = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false,
      });
    } catch (err) {
      $("#camera-note").textContent = err.message;
      if (back) retry = setTimeout(resume, CAMERA_RETRY_MS); // a call may still hold the camera
      return;
    } finally {
      starting = false;
    }
    if (!wanted || !shown()) { got.getTracks().forEach((t) => t.stop()); return; } // gone meanwhile
    stream = got;
    stream.getVideoTracks().forEach((t) => { t.onended = () => lost("stopped"); });
    video.srcObject = stream;
    $("#camera-start").hidden = true;
    $("#camera-stop").hidden = false;
    $("#camera-back").hidden = !back;
    next(chain, 0);
    awake();
    torchOffered();
  };
  const resume = () => { if (wanted && shown()) start(true); };
  const lost = (why) => { // hidden, or the camera stopped: the server hears at once
    if (!stream) return;
    halt();
    tell("/api/frame/away", { why });
    if (why === "stopped") resume();
  };
  const stop = () => {
    wanted = false;
    lost("stopped");
    drawAim(null);
    $("#camera-start").hidden = false;
    $("#camera-stop").hidden = true;
    $("#camera-back").hidden = true;
  };
  // the battery, where the browser tells it (Chromium's Battery Status API): low, it asks for a plug
  const showBattery = () => {
    const low = !battery.charging && battery.level < Number(panel.dataset.lowBattery);
    const line = $("#battery");
    line.textContent = W.battery.replace("{level}", Math.round(battery.level * 100)) +
      (battery.charging ? ` (${W.battery_charging})` : low ? `: ${W.battery_low}` : "");
    line.classList.toggle("low", low);
    line.hidden = false;
  };
  if (navigator.getBattery) {
    navigator.getBattery().then((b) => {
      battery = b;
      b.addEventListener("levelchange", showBattery);
      b.addEventListener("chargingchange", showBattery);
      showBattery();
    }).catch(() => {});
  }
  $("#camera-start").addEventListener("click", () => { wanted = true; start(false); });
  $("#camera-stop").addEventListener("click", stop);
  $("#torch").addEventListener("click", () => lit(!torch));
  // the browser stops the camera and lets go of the wake lock when the page is hidden
  document.addEventListener("visibilitychange", () => (shown() ? resume() : lost("hidden")));
  window.addEventListener("pagehide", () => lost("hidden"));
}

function drawOneVerdict(state) {
  const box = $("#one-verdict");
  const v = state.verdicts.find((x) => x.hand === Number(box.dataset.hand));
  if (v) box.replaceChildren(...verdictView(v, true));
}

// -- start ----------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  const page = document.body.dataset.page;
  sound.show();
  $("#sound").addEventListener("click", () => {
    sound.on = !sound.on;
    localStorage.setItem(SOUND_KEY, sound.on ? "1" : "0");
    sound.show();
    sound.speak(W.sound_ready); // a tap unlocks speech in the browser
  });
  if (page === "history") historyPage();
  if (page === "setup") setupPage();
  if (page === "camera") cameraPage();
  if (page === "error") return;
  follow((state) => {
    window.tableState = state;
    document.body.dataset.version = String(state.version);
    showWarnings(state, page);
    sound.hear(state);
    if (page === "table") drawTable(state);
    if (page === "history") drawHistory(state);
    if (page === "live") drawLive(state);
    if (page === "verdict") drawOneVerdict(state);
    if (page === "evening") drawEvening(state); // webui/static/evening.js
    if (page === "setup") {
      seatsTapping.players(state.players);
      const names = $("#setup").players;
      if (!names.value && state.players.length) { names.value = state.players.join("\n"); setupPage.fillDealer(); }
    }
  });
});
