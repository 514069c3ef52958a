/* The table page of the Mini App (see ../PROTOCOL.md): one WebSocket to the bot, which pushes a
   `table` frame after every change; the page draws it and sends `move` frames. Everything shown
   comes from the last frame; the page keeps no game state of its own apart from a choice of end
   being made, a drag under way and a move waiting for its answer. */
"use strict";

(() => {
  // ---------------------------------------------------------------- constants
  const SVG_NS = "http://www.w3.org/2000/svg";
  const MARGIN_X = 0.6; // half-units of felt beside the line's tiles and end numbers (a number's halo)
  const MARGIN_Y = 1; // and above and below
  // The line fills the felt, its tiles as large as fit, but a half-unit (half a tile's width) at
  // most this big: a lone lead is a big tile, never a giant one.
  const MAX_UNIT_PX = 36; // a lying tile 144 x 72 px
  const UNITS_ACROSS = 16; // at most a sixteenth of the felt's width (a lead and its two numbers span half of it)
  const UNITS_DOWN = 5; // and a fifth of its height
  const KEEP_WRAP = 0.9; // the rows in use stay while they draw the tiles at least this large as the best would
  const PIP_SPACING = 0.5; // between neighbouring pips, in half-units (a half is 2 x 2)
  const PIP_RADIUS = 0.2;
  // Where the pips of each number sit in a half, as offsets on a 3 x 3 grid, the tile lying down.
  const PIPS = {
    0: [],
    1: [[0, 0]],
    2: [[-1, -1], [1, 1]],
    3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [0, -1], [1, -1], [-1, 1], [0, 1], [1, 1]],
  };
  const TOAST_MS = 2600;
  const RECONNECT_FIRST_MS = 500;
  const RECONNECT_MAX_MS = 10000;
  const PENDING_MS = 8000; // a move with no answer by then unlocks the hand again
  const DRAG_START_PX = 8;
  const DROP_RADIUS_PX = 48;
  const URGENT_SECONDS = 10;
  const LOG_LINES = 4;
  const ENTER_MS = 420;
  const WIRE_ENDS = ["left", "right", "up", "down"];
  // Why the server refuses to open the table (PROTOCOL.md), in English until the page's words
  // (`launch_<reason>`, in the person's language) have come.
  const LAUNCH_REFUSALS = {
    missing: "This table was opened without Telegram's launch data: open it again from the chat.",
    broken: "This table's link is damaged: open it again from the chat.",
    forged: "This table's link is not valid: open the table again from the chat.",
    expired: "This table's link has expired: open it again from the chat.",
    ahead: "The bot's clock is behind Telegram's, so the table cannot open yet: try again later.",
    no_user: "Telegram did not say who you are: open the table from the game's message in the chat.",
    foreign_page: "This table opens only from its own page: open it from the chat.",
    no_game: "There is no such game: open the table from the game's message in the chat.",
    not_started: "This game has not started yet: open the table once it is dealt.",
  };
  // A refusal whose answer gave no reason we know: what its status alone says.
  const REFUSALS = { 401: "forged", 403: "foreign_page", 404: "no_game" };
  const THEME_VARS = {
    bg_color: "--bg",
    secondary_bg_color: "--bg2",
    text_color: "--text",
    hint_color: "--hint",
    link_color: "--link",
    button_color: "--button",
    button_text_color: "--button-text",
  };

  // ---------------------------------------------------------------- launch data
  const query = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.slice(1));
  const themeOverride = ["dark", "light"].includes(query.get("theme")) ? query.get("theme") : null;
  const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  /** Telegram.WebApp when Telegram's script has loaded, else null. */
  function webApp() {
    const app = window.Telegram && window.Telegram.WebApp;
    return app && typeof app.ready === "function" ? app : null;
  }

  /** Whether we run inside Telegram with its script loaded (outside, the script loads but has no data). */
  function inTelegram() {
    const app = webApp();
    return Boolean(app && app.initData);
  }

  function supports(version) {
    const app = webApp();
    return Boolean(app && typeof app.isVersionAtLeast === "function" && app.isVersionAtLeast(version));
  }

  function initData() {
    const app = webApp();
    return (app && app.initData) || hash.get("tgWebAppData") || "";
  }

  /** Telegram's language_code of the person, from the launch data ("" if none). */
  function languageCode() {
    try {
      const user = JSON.parse(new URLSearchParams(initData()).get("user") || "{}");
      return typeof user.language_code === "string" ? user.language_code : "";
    } catch (error) {
      return "";
    }
  }

  /** The page's words in the person's language, for what it says before the first frame. */
  function loadWords() {
    const code = languageCode().replace(/[^A-Za-z-]/g, "").slice(0, 16) || "en";
    const at = location.pathname.indexOf("/webapp/");
    const base = at >= 0 ? location.pathname.slice(0, at + "/webapp/".length) : "/webapp/";
    fetch(`${base}words/${code}.json`)
      .then((answer) => (answer.ok ? answer.json() : {}))
      .then((words) => {
        if (words && typeof words === "object") {
          state.words = words;
          renderOffline();
          renderHeadline();
        }
      })
      .catch(() => {});
  }

  function startParam() {
    const app = webApp();
    const unsafe = app && app.initDataUnsafe;
    if (unsafe && unsafe.start_param) return unsafe.start_param;
    const fromData = new URLSearchParams(initData()).get("start_param");
    return fromData || hash.get("tgWebAppStartParam") || query.get("tgWebAppStartParam") || "";
  }

  /** The game's id: a group link's start_param ("g12"), else the page's ?game=12; null if neither. */
  function gameId() {
    const match = /^g(\d+)$/.exec(startParam());
    if (match) return match[1];
    const game = query.get("game");
    return game && /^\d+$/.test(game) ? game : null;
  }

  function hashThemeParams() {
    try {
      const params = JSON.parse(hash.get("tgWebAppThemeParams") || "{}");
      return params && typeof params === "object" ? params : {};
    } catch (error) {
      return {};
    }
  }

  function themeParams() {
    const app = webApp();
    if (app && app.themeParams && Object.keys(app.themeParams).length) return app.themeParams;
    return hashThemeParams();
  }

  // ---------------------------------------------------------------- theme (before the first paint)
  const isColour = (value) => typeof value === "string" && /^#[0-9a-f]{3,8}$/i.test(value);

  function isDarkColour(hex) {
    let digits = hex.slice(1);
    if (digits.length < 6) digits = [...digits.slice(0, 3)].map((d) => d + d).join("");
    const [r, g, b] = [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  }

  function applyTheme() {
    const root = document.documentElement;
    const params = themeOverride ? {} : themeParams();
    let dark;
    if (themeOverride) dark = themeOverride === "dark";
    else if (inTelegram() && webApp().colorScheme) dark = webApp().colorScheme === "dark";
    else if (isColour(params.bg_color)) dark = isDarkColour(params.bg_color);
    else dark = systemDark.matches;
    root.dataset.theme = dark ? "dark" : "light";
    for (const [key, name] of Object.entries(THEME_VARS)) {
      if (isColour(params[key])) root.style.setProperty(name, params[key]);
      else root.style.removeProperty(name);
    }
  }
  applyTheme();
  systemDark.addEventListener("change", applyTheme);

  // ---------------------------------------------------------------- state
  const state = {
    game: null,
    frame: null, // the last `table` frame
    socket: null,
    connectedOnce: false,
    failures: 0, // sockets in a row that closed without opening (the network, a restart)
    refused: null, // why the server will not open this table to this page ("forged", "expired", …; PROTOCOL.md)
    freshSocket: false, // the next table frame is the first of a new socket: draw it without animation
    reconnectDelay: RECONNECT_FIRST_MS,
    reconnectTimer: null,
    pending: false, // a move was sent and has no answer yet
    pendingTimer: null,
    choice: null, // {key, tile, ends}: a tile that fits several ends, waiting for one to be tapped
    press: null, // a pointer down on a hand tile: {key, id, x, y, button, dragging, ghost, ...}
    dropPoint: null, // {x, y, at}: where the last dragged tile was let go (its animation starts there)
    rematchAt: 0,
    halfWidth: null, // the width of the rows the line is drawn in (the server offers several)
    words: {}, // the page's words before the first frame (/webapp/words/<language>.json)
    toastTimer: null,
    clockTimer: null,
  };

  const $ = (selector, root = document) => root.querySelector(selector);
  const texts = () => (state.frame && state.frame.texts) || state.words;
  /** A word of the page: the server's (in the reader's language), else English. */
  const word = (key, english) => texts()[key] || english;
  const tileKey = (tile) => `${Math.max(tile[0], tile[1])}${Math.min(tile[0], tile[1])}`;

  /** A new HTML element: el("div", {class: "x", dataset: {id: 1}, text: "…"}, child…). */
  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    setAttributes(node, attributes);
    node.append(...children.filter((child) => child !== null && child !== undefined));
    return node;
  }

  function svg(tag, attributes = {}, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttributes(node, attributes);
    node.append(...children.filter((child) => child !== null && child !== undefined));
    return node;
  }

  function setAttributes(node, attributes) {
    for (const [name, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") node.setAttribute("class", value);
      else if (name === "dataset") Object.assign(node.dataset, value);
      else if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
  }

  // ---------------------------------------------------------------- drawing a tile
  /** The parts of a tile `w` x `h` half-units (4 x 2 lying, 2 x 4 standing) at the origin,
      `first` on its left (lying) or top (standing) half, as the renderer's sprites draw it. */
  function tileParts(w, h, first, second) {
    const vertical = h > w;
    const parts = [
      svg("rect", { class: "ring", x: -0.05, y: -0.05, width: w + 0.1, height: h + 0.1, rx: 0.5 }),
      svg("rect", { class: "face", x: 0.1, y: 0.1, width: w - 0.2, height: h - 0.2, rx: 0.34 }),
      vertical
        ? svg("line", { class: "divider", x1: 0.32, y1: h / 2, x2: w - 0.32, y2: h / 2 })
        : svg("line", { class: "divider", x1: w / 2, y1: 0.32, x2: w / 2, y2: h - 0.32 }),
    ];
    const centres = vertical ? [[1, 1], [1, 3]] : [[1, 1], [3, 1]];
    [first, second].forEach((number, index) => {
      const [cx, cy] = centres[index];
      for (const [dc, dr] of PIPS[number] || []) {
        // A standing tile is the lying one turned a quarter anticlockwise: (dc, dr) -> (dr, -dc).
        const [dx, dy] = vertical ? [dr, -dc] : [dc, dr];
        parts.push(svg("circle", { class: "pip", cx: cx + dx * PIP_SPACING, cy: cy + dy * PIP_SPACING, r: PIP_RADIUS }));
      }
    });
    return parts;
  }

  /** A whole tile in its own little SVG (the hand, the result, the dragged ghost). */
  function tileSvg(first, second, vertical) {
    const [w, h] = vertical ? [2, 4] : [4, 2];
    return svg(
      "svg",
      { viewBox: `-0.1 -0.1 ${w + 0.2} ${h + 0.2}`, "aria-hidden": "true", focusable: "false" },
      svg("g", { class: "body" }, ...tileParts(w, h, first, second)),
    );
  }

  // ---------------------------------------------------------------- the socket
  function socketUrl() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const at = location.pathname.indexOf("/webapp/");
    const base = at >= 0 ? location.pathname.slice(0, at + "/webapp/".length) : "/webapp/";
    const params = `game=${encodeURIComponent(state.game)}&init_data=${encodeURIComponent(initData())}`;
    return `${scheme}//${location.host}${base}ws?${params}`;
  }

  function connect() {
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = null;
    let socket;
    try {
      socket = new WebSocket(socketUrl());
    } catch (error) {
      scheduleReconnect();
      return;
    }
    state.socket = socket;
    let opened = false;
    socket.addEventListener("open", () => {
      if (state.socket !== socket) return;
      opened = true;
      state.failures = 0;
      state.reconnectDelay = RECONNECT_FIRST_MS;
      state.freshSocket = true;
      setConnected(true);
    });
    socket.addEventListener("message", (event) => {
      if (state.socket !== socket) return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      handleFrame(frame);
    });
    socket.addEventListener("close", () => {
      if (state.socket !== socket) return;
      state.socket = null;
      if (!opened) state.failures += 1;
      setConnected(false);
      if (opened) scheduleReconnect();
      else probe();
    });
  }

  /** A socket that never opened: the browser does not say why, so one plain request to its
   * address asks (401: the launch data is not the bot's, or too old; 403: another site's page;
   * 404: no such game), and its answer's `reason` says which. Any of these is final, and said in
   * its own words; anything else (the network, a restart) is tried again. */
  async function probe() {
    let status = 0;
    let reason = "";
    try {
      const answer = await fetch(socketUrl().replace(/^ws/, "http"), { cache: "no-store", credentials: "omit" });
      status = answer.status;
      if (REFUSALS[status]) reason = String((await answer.json()).reason || "");
    } catch (error) {
      // The network, or an answer that is not the server's JSON: the status alone decides.
    }
    if (state.socket) return; // a new socket meanwhile (the page shown again)
    if (REFUSALS[status]) {
      state.refused = Object.prototype.hasOwnProperty.call(LAUNCH_REFUSALS, reason) ? reason : REFUSALS[status];
      document.body.dataset.refused = state.refused;
      renderHeadline();
      renderOffline();
      return;
    }
    scheduleReconnect();
  }

  /** The page is left (the Mini App closed, or the browser keeps it in its back-forward cache):
   * the socket is closed now, so the chat takes the person's hand over at once rather than when
   * the server's heartbeat misses the page; a page shown again opens a new one. */
  function onPageHide() {
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = null;
    const old = state.socket;
    state.socket = null;
    if (old) old.close(1000);
    setConnected(false);
  }

  function onPageShow(event) {
    if (event.persisted && !state.socket && !state.refused && state.game !== null && initData()) connect();
  }

  function scheduleReconnect() {
    clearTimeout(state.reconnectTimer);
    const delay = state.reconnectDelay * (0.8 + Math.random() * 0.4);
    state.reconnectTimer = setTimeout(connect, delay);
    state.reconnectDelay = Math.min(state.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  function send(message) {
    const socket = state.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showToast(word("offline", "No connection: trying again…"));
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  function setConnected(connected) {
    document.body.dataset.connected = String(connected);
    if (connected) state.connectedOnce = true;
    if (!connected) {
      endDrag(false);
      setPending(false);
      cancelChoice();
    }
    renderOffline();
    renderHand();
  }

  function handleFrame(frame) {
    switch (frame.type) {
      case "table":
        return onTable(frame);
      case "refused":
        return onRefused(frame);
      case "closed":
        if (frame.text) showToast(frame.text);
        return undefined;
      case "notice":
        if (typeof frame.text === "string") showToast(frame.text);
        return undefined;
      case "moved":
        return onMoved(frame);
      default:
        return undefined;
    }
  }

  function onTable(frame) {
    const previous = state.freshSocket ? null : state.frame;
    state.freshSocket = false;
    const sources = previous ? enterSources(previous, frame) : new Map();
    const wasMyTurn = previous ? isMyTurn(previous) : null;
    state.frame = frame;
    setPending(false);
    if (state.choice && !(previous && previous.version === frame.version)) cancelChoice();
    if (state.press && state.press.dragging && !(previous && previous.version === frame.version)) endDrag(false);
    document.body.dataset.version = String(frame.version);
    document.body.dataset.status = String(frame.status);
    document.body.dataset.you = frame.you === null || frame.you === undefined ? "none" : String(frame.you);
    document.documentElement.lang = frame.lang || document.documentElement.lang;
    renderAll(previous, sources);
    if (wasMyTurn === false && isMyTurn(frame)) haptic("success");
  }

  /** The game goes on as another (a rematch): this page opens that one, on a socket of its own. */
  function onMoved(frame) {
    const game = String(frame.game);
    if (!/^\d+$/.test(game) || game === state.game) return;
    state.game = game;
    state.frame = null;
    const old = state.socket;
    state.socket = null;
    if (old) old.close();
    try {
      const url = new URL(location.href);
      url.searchParams.set("game", game);
      history.replaceState(null, "", url.pathname + url.search + url.hash);  // a reload opens the new game
    } catch (error) {
      // No history here (an old client): the socket alone moves.
    }
    connect();
  }

  function onRefused(frame) {
    if (frame.reason === "stale") {
      // A table frame with the current state follows; the hand stays locked until it comes.
      return;
    }
    setPending(false);
    renderHand();
    // The rematch button is shown before the server knows it: its refusal is not the person's mistake.
    if (Date.now() - state.rematchAt < 3000 && (frame.reason === "broken" || frame.reason === "unknown")) return;
    haptic("error");
    showToast(frame.text || word(`refused_${frame.reason}`, "That move was refused."));
  }

  // ---------------------------------------------------------------- whose turn
  function isMyTurn(frame = state.frame) {
    return Boolean(frame && frame.you !== null && frame.you !== undefined && frame.turn === frame.you && !frame.result);
  }

  function handEntry(key) {
    const hand = (state.frame && state.frame.hand) || [];
    return hand.find((entry) => tileKey(entry.tile) === key) || null;
  }

  function canPlay(entry) {
    return Boolean(
      entry && entry.ends && entry.ends.length && isMyTurn() && !state.pending && document.body.dataset.connected === "true",
    );
  }

  // ---------------------------------------------------------------- rendering
  function renderAll(previous, sources) {
    renderTop();
    renderLine(sources);
    renderHand();
    renderLog();
    renderResult();
    renderOffline();
    tickClock();
  }

  function renderTop() {
    const frame = state.frame;
    $("#title").textContent = frame.title || "";
    document.title = frame.title || "Dominoes";
    const boneyard = $("#boneyard");
    const hasBoneyard = typeof frame.boneyard === "number";
    boneyard.hidden = !hasBoneyard;
    boneyard.textContent = hasBoneyard ? String(frame.boneyard) : "";
    const boneyardWords = word("boneyard", `Boneyard: ${frame.boneyard}`);
    boneyard.title = boneyardWords;
    boneyard.setAttribute("aria-label", boneyardWords);

    const seats = (frame.seats || []).map((seat, index) => {
      const classes = ["seat"];
      if (index === frame.turn) classes.push("turn");
      if (index === frame.you) classes.push("you");
      if (seat.computer) classes.push("computer");
      if (seat.away) classes.push("away");
      if (seat.team === 0 || seat.team === 1) classes.push(`team-${seat.team}`);
      const name = seat.name || `#${index + 1}`;
      const note = seat.away ? word("away", "away") : seat.computer ? word("computer", "computer") : null;
      return el(
        "div",
        { class: classes.join(" "), dataset: { seat: index }, title: note ? `${name} (${note})` : name },
        el("div", { class: "name", text: name }),
        el(
          "div",
          { class: "counts" },
          el("span", { class: "tiles", title: word("tiles", "tiles in hand"), text: String(seat.tiles) }),
          el("span", { class: "score", title: word("score", "score"), text: String(seat.score) }),
        ),
        el("div", { class: "bar" }),
      );
    });
    const holder = $("#seats");
    holder.style.gridTemplateColumns = `repeat(${Math.max(seats.length, 1)}, minmax(0, 1fr))`;
    holder.replaceChildren(...seats);
    // A name too long for its card gives way to the server's short one ("Комп… 1"), which keeps the
    // seats apart where the ellipsis at the end made "Компь…" of both computers.
    (frame.seats || []).forEach((seat, index) => {
      const name = seats[index].querySelector(".name");
      if (seat.short && name.scrollWidth > name.clientWidth) fitKeepingEnd(name, seat.short);
    });
    renderHeadline();
  }

  // On the narrowest phones even the short name can overflow its card. What tells two seats apart
  // is kept: its end after a "…" ("🤖 Комп… 1" / "🤖 Комп… 2") or a last word with a number in it
  // ("Ann #2"); letters go from before it. Any other name is cut at its end by the card itself.
  function fitKeepingEnd(node, text) {
    node.textContent = text;
    const letters = Array.from(text); // whole emoji, not halves of them
    const cut = letters.lastIndexOf("…");
    const space = letters.lastIndexOf(" ");
    const numbered = space > 0 && /\d/.test(letters.slice(space).join(""));
    if (cut < 0 && !numbered) return;
    let head = letters.slice(0, cut >= 0 ? cut : space).join("").trimEnd();
    const tail = cut >= 0 ? letters.slice(cut + 1).join("") : letters.slice(space).join("");
    while (node.scrollWidth > node.clientWidth && Array.from(head).length > 1) {
      head = Array.from(head).slice(0, -1).join("").trimEnd();
      node.textContent = `${head}…${tail}`;
    }
  }

  function renderHeadline() {
    const frame = state.frame;
    const headline = $("#headline");
    headline.classList.toggle("mine", isMyTurn());
    headline.classList.toggle("choosing", Boolean(state.choice));
    if (!frame) {
      headline.textContent = state.refused ? "" : word("connecting", "Connecting…");
      return;
    }
    if (state.choice) {
      headline.textContent = word("choose_end", "This tile fits more than one end: choose one.");
      return;
    }
    if (frame.headline) {
      headline.textContent = frame.headline;
      return;
    }
    let words = "";
    if (frame.result) words = word("round_over", "Round over");
    else if (isMyTurn(frame)) words = word("your_turn", "Your turn!");
    else if (frame.turn !== null && frame.turn !== undefined) {
      const name = (frame.seats[frame.turn] || {}).name || "";
      words = (texts().waiting || "Waiting for {name}").replace("{name}", name);
    }
    headline.textContent = words;
  }

  /** Where each tile that is new in `frame` comes from, on the screen (before anything is redrawn):
      the last play of yours from your hand (or where you dropped it), another seat's from its card. */
  function enterSources(previous, frame) {
    const sources = new Map();
    const before = new Set(((previous.line && previous.line.spots) || []).map((spot) => tileKey(spot.tile)));
    const added = ((frame.line && frame.line.spots) || []).filter((spot) => !before.has(tileKey(spot.tile)));
    if (added.length !== 1 || !frame.last) return sources; // a new round, a reconnect: no slides
    const key = tileKey(added[0].tile);
    if (tileKey(frame.last.tile) !== key) return sources;
    let point = null;
    if (frame.last.seat === previous.you && state.dropPoint && Date.now() - state.dropPoint.at < 10000) {
      point = state.dropPoint;
    } else if (frame.last.seat === previous.you) {
      const button = $(`#hand [data-tile="${key}"]`);
      if (button) point = centre(button.getBoundingClientRect());
    } else {
      const card = $(`.seat[data-seat="${frame.last.seat}"]`);
      if (card) point = centre(card.getBoundingClientRect());
    }
    state.dropPoint = null;
    if (point) sources.set(key, point);
    return sources;
  }

  const centre = (rect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });

  // ---------------------------------------------------------------- fitting the line to the felt
  /** The part of the felt a layout of the line covers, in half-units: its tiles and end numbers
      with a little felt around them ([x0, y0, x1, y1]); null before the first tile. */
  function extent(layout) {
    const rects = [...(layout.spots || []), ...(layout.badges || [])].map((item) => item.rect);
    if (!rects.length) return null;
    return [
      Math.min(...rects.map((rect) => rect[0])) - MARGIN_X,
      Math.min(...rects.map((rect) => rect[1])) - MARGIN_Y,
      Math.max(...rects.map((rect) => rect[2])) + MARGIN_X,
      Math.max(...rects.map((rect) => rect[3])) + MARGIN_Y,
    ];
  }

  /** How many pixels a half-unit of `box` gets on a felt `width` x `height` px: all of it in view, up to the cap. */
  function unitPx(box, width, height) {
    const fits = Math.min(width / (box[2] - box[0]), height / (box[3] - box[1]));
    return Math.min(fits, MAX_UNIT_PX, width / UNITS_ACROSS, height / UNITS_DOWN);
  }

  /** The line as the server laid it out (`line`, or one of its `wraps`: the same line in rows of
      another width) that draws the tiles largest on this felt, and its viewBox: the line in the
      middle of the felt, as large as fits. The rows in use are kept unless others are clearly
      better, so that a line does not jump between two wraps from move to move. */
  function fitLine(line, width, height) {
    const layouts = [line, ...(line.wraps || [])];
    if (!(width > 0 && height > 0) || !extent(line)) {
      const [x0, y0, x1, y1] = line.bounds || [-24, -2, 24, 2];
      return { layout: line, viewBox: [x0 - MARGIN_X, y0 - MARGIN_Y, x1 - x0 + 2 * MARGIN_X, y1 - y0 + 2 * MARGIN_Y] };
    }
    const fits = layouts.map((layout) => ({ layout, box: extent(layout) }));
    for (const fit of fits) fit.unit = unitPx(fit.box, width, height);
    let best = fits[0];
    for (const fit of fits) if (fit.unit > best.unit) best = fit;
    const kept = fits.find((fit) => fit.layout.half_width === state.halfWidth);
    const chosen = kept && kept.unit >= KEEP_WRAP * best.unit ? kept : best;
    state.halfWidth = chosen.layout.half_width;
    const [x0, y0, x1, y1] = chosen.box;
    const [w, h] = [width / chosen.unit, height / chosen.unit];
    return { layout: chosen.layout, viewBox: [(x0 + x1 - w) / 2, (y0 + y1 - h) / 2, w, h] };
  }

  function renderLine(sources) {
    const frame = state.frame;
    const board = $("#table svg");
    const size = board.getBoundingClientRect();
    const fitted = fitLine(frame.line || { spots: [], badges: [], bounds: [-24, -2, 24, 2] }, size.width, size.height);
    const line = fitted.layout;
    board.setAttribute("viewBox", fitted.viewBox.map((n) => Math.round(n * 1000) / 1000).join(" "));
    const layer = $(".tiles", board);
    const existing = new Map([...layer.children].map((node) => [node.dataset.tile, node]));
    const lastKey = frame.last ? tileKey(frame.last.tile) : null;
    const entering = [];
    const nodes = (line.spots || []).map((spot) => {
      const key = tileKey(spot.tile);
      const [sx0, sy0, sx1, sy1] = spot.rect;
      const w = sx1 - sx0;
      const h = sy1 - sy0;
      const look = `${w}x${h}:${spot.first}${spot.second}`;
      let node = existing.get(key);
      if (!node || node.dataset.look !== look) {
        const fresh = !node;
        node = svg(
          "g",
          { class: "tile", dataset: { tile: key, look }, role: "img", "aria-label": `${spot.first}-${spot.second}` },
          svg("g", { class: "body" }, ...tileParts(w, h, spot.first, spot.second)),
        );
        if (fresh) entering.push({ node, key, cx: sx0 + w / 2, cy: sy0 + h / 2 });
      }
      // Placed by a CSS transform (user units), so that a tile the layout moves slides there.
      node.style.transform = `translate(${sx0}px, ${sy0}px)`;
      node.classList.toggle("last", key === lastKey);
      return node;
    });
    layer.replaceChildren(...nodes);

    const badges = (line.badges || []).map((badge) => {
      const [bx0, by0, bx1, by1] = badge.rect;
      const cx = (bx0 + bx1) / 2;
      const cy = (by0 + by1) / 2;
      return svg(
        "g",
        { class: "badge", dataset: { end: badge.end, value: badge.value }, "aria-label": `${badge.end}: ${badge.value}` },
        svg("circle", { class: "halo", cx, cy, r: 1.55 }),
        svg("circle", { class: "disc", cx, cy, r: 0.86 }),
        svg("text", { x: cx, y: cy + 0.05, "text-anchor": "middle", "dominant-baseline": "central", text: String(badge.value) }),
      );
    });
    $(".badges", board).replaceChildren(...badges);
    markTargets();
    if (entering.length && !reducedMotion.matches && state.frame === frame) animateEntering(board, entering, sources);
  }

  function animateEntering(board, entering, sources) {
    const ctm = board.getScreenCTM();
    if (!ctm || !ctm.a) return;
    for (const { node, key, cx, cy } of entering) {
      const body = node.firstChild;
      const source = sources.get(key);
      let from = "scale(0.4)";
      if (source) {
        const dx = (source.x - (ctm.a * cx + ctm.e)) / ctm.a;
        const dy = (source.y - (ctm.d * cy + ctm.f)) / ctm.d;
        from = `translate(${dx}px, ${dy}px) scale(1.15)`;
      }
      body.classList.add("entering");
      body.style.transition = "none";
      body.style.transform = from;
      body.style.opacity = source ? "0.9" : "0";
    }
    board.getBoundingClientRect(); // the starting point is laid out before the transition begins
    requestAnimationFrame(() => {
      for (const { node } of entering) {
        const body = node.firstChild;
        body.style.transition = "";
        body.style.transform = "";
        body.style.opacity = "";
        setTimeout(() => body.classList.remove("entering"), ENTER_MS + 50);
      }
    });
  }

  /** The badges that a chosen or dragged tile may go to, and the table's look while choosing. */
  function markTargets() {
    const ends = targetEnds();
    const table = $("#table");
    table.classList.toggle("choosing", ends !== null);
    for (const badge of table.querySelectorAll("[data-end]")) {
      const target = ends !== null && ends.includes(badge.dataset.end);
      badge.classList.toggle("target", target);
      badge.classList.remove("hover");
      if (target) {
        badge.setAttribute("role", "button");
        badge.setAttribute("tabindex", "0");
      } else {
        badge.removeAttribute("role");
        badge.removeAttribute("tabindex");
      }
    }
  }

  function targetEnds() {
    if (state.press && state.press.dragging) return state.press.ends;
    if (state.choice) return state.choice.ends;
    return null;
  }

  function renderHand() {
    const frame = state.frame;
    const hand = $("#hand");
    const entries = (frame && frame.hand) || [];
    const mine = isMyTurn();
    hand.classList.toggle("my-turn", mine);
    hand.classList.toggle("pending", state.pending);
    hand.classList.toggle("empty", entries.length === 0);
    hand.hidden = !frame || frame.you === null || frame.you === undefined;
    const dragging = state.press && state.press.dragging ? state.press.key : null;
    const buttons = entries.map((entry) => {
      const key = tileKey(entry.tile);
      const playable = Boolean(entry.ends && entry.ends.length);
      const classes = ["tile"];
      if (playable) classes.push("playable");
      if (state.choice && state.choice.key === key) classes.push("selected");
      if (dragging === key) classes.push("lifted");
      const high = Math.max(entry.tile[0], entry.tile[1]);
      const low = Math.min(entry.tile[0], entry.tile[1]);
      return el(
        "button",
        {
          type: "button",
          class: classes.join(" "),
          dataset: { tile: key },
          "aria-label": `${high}-${low}`,
          "aria-disabled": String(!(playable && mine)),
          "aria-pressed": state.choice && state.choice.key === key ? "true" : null,
        },
        tileSvg(high, low, true),
      );
    });
    hand.replaceChildren(...buttons);
    sizeHand();
  }

  /** Hand tiles as big as fit in one row (a phone's seven tiles), smaller for a long hand, wrapping at the least. */
  function sizeHand() {
    const hand = $("#hand");
    const count = hand.children.length;
    if (!count) return;
    const gap = 6;
    const width = hand.clientWidth - 16;
    const onItsSide = window.matchMedia("(orientation: landscape) and (max-height: 520px)").matches;
    const biggest = onItsSide ? 34 : window.innerWidth >= 800 ? 52 : 44; // on its side: room left for the felt
    const fit = Math.floor((width - gap * (count - 1)) / count);
    hand.style.setProperty("--hand-w", `${Math.max(28, Math.min(biggest, fit))}px`);
  }

  function renderLog() {
    const lines = ((state.frame && state.frame.log) || []).slice(-LOG_LINES);
    $("#log").replaceChildren(...lines.map((line) => el("div", { class: "log-line", text: line })));
  }

  function renderResult() {
    const frame = state.frame;
    const panel = $("#result");
    const result = frame && frame.result;
    panel.hidden = !result;
    document.body.classList.toggle("has-result", Boolean(result));
    if (!result) return;
    $(".result-text", panel).textContent = result.text || "";
    const rows = (result.hands || []).map((tiles, index) => {
      const seat = (frame.seats || [])[index] || {};
      const minis = (tiles || []).map((tile) =>
        el("span", { class: "mini", dataset: { mini: tileKey(tile) } }, tileSvg(tile[0], tile[1], false)),
      );
      return el(
        "div",
        { class: `result-hand${index === frame.you ? " you" : ""}`, dataset: { seat: index } },
        el("span", { class: "result-name", text: seat.name || `#${index + 1}` }),
        el("span", { class: "minis" }, ...(minis.length ? minis : [el("span", { class: "none", text: "—" })])),
      );
    });
    $(".result-hands", panel).replaceChildren(...rows);
    const rematch = $("#rematch");
    rematch.hidden = !result.over || frame.you === null || frame.you === undefined; // a spectator has no seat to play again
    rematch.textContent = word("rematch", "Rematch");
  }

  function renderOffline() {
    const banner = $("#offline");
    const connected = document.body.dataset.connected === "true";
    if (state.game === null) {
      banner.hidden = false;
      banner.textContent = word("no_game", "No game to show: open the table from the game's message.");
      return;
    }
    if (!initData()) {
      // The server refuses a page without Telegram's launch data: do not even try.
      banner.hidden = false;
      banner.textContent = word("open_in_telegram", "Open the table from Telegram.");
      return;
    }
    banner.hidden = connected;
    if (state.refused) banner.textContent = word(`launch_${state.refused}`, LAUNCH_REFUSALS[state.refused]);
    else if (state.failures >= 4) banner.textContent = word("cannot_connect", "The table cannot be reached: close it and open it again.");
    else if (state.connectedOnce) banner.textContent = word("reconnecting", "Reconnecting…");
    else banner.textContent = word("connecting", "Connecting…");
  }

  // ---------------------------------------------------------------- the clock
  function tickClock() {
    const frame = state.frame;
    const clock = $("#clock");
    const running = frame && typeof frame.deadline === "number" && frame.turn !== null && frame.turn !== undefined && !frame.result;
    clock.hidden = !running;
    for (const bar of document.querySelectorAll(".seat .bar")) bar.style.width = "0";
    if (!running) return;
    let left = Math.max(0, frame.deadline - Date.now() / 1000);
    // A phone's clock may run ahead or behind the server's: never show more than a whole turn.
    if (frame.turn_seconds) left = Math.min(left, frame.turn_seconds);
    const seconds = Math.ceil(left);
    const shown = String(seconds);
    if (clock.textContent !== shown) clock.textContent = shown;
    clock.dataset.unit = word("seconds_short", "s");
    clock.setAttribute("aria-label", `${seconds} ${word("seconds", "seconds")}`);
    clock.classList.toggle("urgent", left < URGENT_SECONDS);
    const bar = $(`.seat[data-seat="${frame.turn}"] .bar`);
    if (bar && frame.turn_seconds) bar.style.width = `${(100 * left) / frame.turn_seconds}%`;
  }

  // ---------------------------------------------------------------- playing
  function onHandTap(key) {
    const entry = handEntry(key);
    if (!canPlay(entry)) return;
    if (state.choice && state.choice.key === key) {
      cancelChoice();
      return;
    }
    if (entry.ends.length === 1) {
      sendMove(entry.tile, entry.ends[0]);
      return;
    }
    haptic("select");
    state.choice = { key, tile: entry.tile, ends: entry.ends.slice() };
    renderHand();
    markTargets();
    renderHeadline();
    updateBackButton();
  }

  function cancelChoice() {
    if (!state.choice) return;
    state.choice = null;
    renderHand();
    markTargets();
    renderHeadline();
    updateBackButton();
  }

  function chooseEnd(end) {
    const choice = state.choice;
    if (!choice || !choice.ends.includes(end)) return;
    sendMove(choice.tile, end);
  }

  function sendMove(tile, end) {
    if (!state.frame) return;
    const wire = WIRE_ENDS.includes(end) ? end : null; // "lead" (or null) goes as null
    const high = Math.max(tile[0], tile[1]);
    const low = Math.min(tile[0], tile[1]);
    if (!send({ type: "move", version: state.frame.version, tile: [high, low], end: wire })) return;
    state.choice = null;
    setPending(true);
    renderHand();
    markTargets();
    renderHeadline();
    updateBackButton();
  }

  function setPending(pending) {
    state.pending = pending;
    clearTimeout(state.pendingTimer);
    document.body.classList.toggle("pending", pending);
    if (pending) {
      state.pendingTimer = setTimeout(() => {
        setPending(false);
        renderHand();
      }, PENDING_MS);
    }
  }

  function rematch() {
    state.rematchAt = Date.now();
    send({ type: "rematch" });
    const button = $("#rematch");
    button.disabled = true;
    setTimeout(() => {
      button.disabled = false;
    }, 2000);
  }

  // ---------------------------------------------------------------- dragging a tile onto an end
  function onPointerDown(event) {
    const button = event.target.closest("#hand [data-tile]");
    if (!button || (event.pointerType === "mouse" && event.button !== 0)) return;
    endDrag(false);
    state.press = { key: button.dataset.tile, id: event.pointerId, x: event.clientX, y: event.clientY, button, dragging: false };
    try {
      button.setPointerCapture(event.pointerId);
    } catch (error) {
      // A pointer that is already gone: its up or cancel follows.
    }
  }

  function onPointerMove(event) {
    const press = state.press;
    if (!press || press.id !== event.pointerId) return;
    if (!press.dragging) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_START_PX) return;
      const entry = handEntry(press.key);
      if (!canPlay(entry)) return;
      startDrag(press, entry);
    }
    event.preventDefault();
    moveGhost(press, event.clientX, event.clientY);
    press.target = dropTarget(press, event.clientX, event.clientY);
    for (const badge of document.querySelectorAll("#table [data-end]")) {
      badge.classList.toggle("hover", press.target !== null && badge.dataset.end === press.target);
    }
    press.ghost.classList.toggle("ok", press.target !== null);
  }

  function onPointerUp(event) {
    const press = state.press;
    if (!press || press.id !== event.pointerId) return;
    if (!press.dragging) {
      state.press = null;
      onHandTap(press.key);
      return;
    }
    const target = dropTarget(press, event.clientX, event.clientY);
    const entry = handEntry(press.key);
    endDrag(false);
    if (target !== null && canPlay(entry)) {
      state.dropPoint = { x: event.clientX, y: event.clientY, at: Date.now() };
      sendMove(entry.tile, target);
    }
  }

  function startDrag(press, entry) {
    press.dragging = true;
    press.ends = entry.ends.slice();
    const rect = press.button.getBoundingClientRect();
    press.offsetX = press.x - rect.left;
    press.offsetY = press.y - rect.top;
    const high = Math.max(entry.tile[0], entry.tile[1]);
    const low = Math.min(entry.tile[0], entry.tile[1]);
    press.ghost = el("div", { class: "ghost", "aria-hidden": "true" }, tileSvg(high, low, true));
    press.ghost.style.width = `${rect.width}px`;
    press.ghost.style.height = `${rect.height}px`;
    document.body.append(press.ghost);
    press.button.classList.add("lifted");
    state.choice = null;
    markTargets();
    updateBackButton();
    haptic("select");
  }

  function moveGhost(press, x, y) {
    press.ghost.style.transform = `translate(${x - press.offsetX}px, ${y - press.offsetY}px)`;
  }

  /** The end a tile let go at (x, y) goes to: the nearest of its badges within reach; a tile that
      fits one end only (or leads) goes there from anywhere on the table. */
  function dropTarget(press, x, y) {
    let best = null;
    let bestDistance = DROP_RADIUS_PX;
    for (const badge of document.querySelectorAll("#table [data-end]")) {
      if (!press.ends.includes(badge.dataset.end)) continue;
      const point = centre(badge.getBoundingClientRect());
      const distance = Math.hypot(point.x - x, point.y - y);
      if (distance <= bestDistance) {
        best = badge.dataset.end;
        bestDistance = distance;
      }
    }
    if (best !== null) return best;
    if (press.ends.length === 1) {
      const table = $("#table").getBoundingClientRect();
      if (x >= table.left && x <= table.right && y >= table.top && y <= table.bottom) return press.ends[0];
    }
    return null;
  }

  function endDrag(render = true) {
    const press = state.press;
    state.press = null;
    if (!press) return;
    if (press.ghost) press.ghost.remove();
    if (press.button) press.button.classList.remove("lifted");
    if (press.dragging) markTargets();
    if (render) renderHand();
  }

  // ---------------------------------------------------------------- toast, haptics, Telegram
  function showToast(text) {
    const toast = $("#toast");
    toast.textContent = text;
    toast.hidden = false;
    toast.classList.remove("shown");
    void toast.offsetWidth; // restart the fade
    toast.classList.add("shown");
    clearTimeout(state.toastTimer);
    state.toastTimer = setTimeout(() => {
      toast.hidden = true;
      toast.classList.remove("shown");
    }, TOAST_MS);
  }

  function haptic(kind) {
    if (!supports("6.1")) return;
    const feedback = webApp().HapticFeedback;
    if (!feedback) return;
    try {
      if (kind === "select") feedback.selectionChanged();
      else feedback.notificationOccurred(kind);
    } catch (error) {
      // Haptics are a nicety.
    }
  }

  let telegramReady = false;
  function joinTelegram() {
    const app = webApp();
    if (!app || telegramReady) return;
    telegramReady = true;
    try {
      app.ready();
      app.expand();
      if (supports("7.7") && typeof app.disableVerticalSwipes === "function") app.disableVerticalSwipes();
      if (typeof app.onEvent === "function") app.onEvent("themeChanged", applyTheme);
      if (supports("6.1") && app.BackButton) app.BackButton.onClick(cancelChoice);
    } catch (error) {
      // An old client: the page works without these.
    }
    applyTheme();
    updateBackButton();
    // Telegram's script came late and knows what the hash did not (a reload keeps its launch data).
    if (!state.socket && !state.reconnectTimer && document.readyState !== "loading") {
      if (state.game === null) state.game = gameId();
      if (state.game !== null && initData()) connect();
      renderOffline();
    }
  }

  function updateBackButton() {
    if (!telegramReady || !supports("6.1")) return;
    const back = webApp().BackButton;
    if (!back) return;
    if (state.choice) back.show();
    else back.hide();
  }

  // ---------------------------------------------------------------- start
  function start() {
    const hand = $("#hand");
    hand.addEventListener("pointerdown", onPointerDown);
    hand.addEventListener("pointermove", onPointerMove);
    hand.addEventListener("pointerup", onPointerUp);
    hand.addEventListener("pointercancel", () => endDrag());
    hand.addEventListener("lostpointercapture", (event) => {
      if (state.press && state.press.id === event.pointerId && state.press.dragging) endDrag();
    });
    hand.addEventListener("click", (event) => {
      // Pointers are handled above; a click with no pointer is the keyboard's Enter or Space.
      const button = event.target.closest("[data-tile]");
      if (button && event.detail === 0) onHandTap(button.dataset.tile);
    });
    hand.addEventListener("contextmenu", (event) => event.preventDefault());

    const table = $("#table");
    table.addEventListener("click", (event) => {
      if (!state.choice) return;
      const badge = event.target.closest("[data-end]");
      if (badge && state.choice.ends.includes(badge.dataset.end)) chooseEnd(badge.dataset.end);
      else cancelChoice();
    });
    table.addEventListener("keydown", (event) => {
      const badge = event.target.closest && event.target.closest("[data-end]");
      if (badge && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        chooseEnd(badge.dataset.end);
      }
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") cancelChoice();
    });
    $("#rematch").addEventListener("click", rematch);
    window.addEventListener("resize", sizeHand);
    // The felt changes size with the window, a phone turned, the log's lines, the hand's rows.
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => {
        if (state.frame) renderLine(new Map());
      }).observe($("#table"));
    } else {
      window.addEventListener("resize", () => state.frame && renderLine(new Map()));
    }
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("pageshow", onPageShow);

    state.game = gameId();
    renderHeadline();
    renderOffline();
    loadWords();
    state.clockTimer = setInterval(tickClock, 250);
    if (state.game !== null && initData()) connect();

    if (webApp()) joinTelegram();
    else {
      const script = document.getElementById("telegram-script");
      if (script) script.addEventListener("load", joinTelegram);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
