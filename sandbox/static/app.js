/* The sandbox page: a small Telegram client for the people of the sandbox (see ../PROTOCOL.md).
   Everything shown comes from the server's frames; the page keeps no state of its own apart from
   who you are and which chat is open. */
"use strict";

// ---------------------------------------------------------------- theme (before the first paint)
// The page can be forced into a theme with ?theme=dark|light (screenshots, tests); otherwise it
// follows the system, live.
const themeOverride = new URLSearchParams(location.search).get("theme");
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

function applyTheme() {
  const dark = themeOverride ? themeOverride === "dark" : systemDark.matches;
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}
applyTheme();
systemDark.addEventListener("change", applyTheme);

// ---------------------------------------------------------------- constants
const PEER_COLORS = 7; // Telegram's seven name/avatar colours (style.css: .peer-0 … .peer-6)
const BOT_COLOR = 5;
const GROUP_COLOR = 4;
const TOAST_MS = 2500;
const TAP_TIMEOUT_MS = 15000;
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 5000;
const AT_BOTTOM_SLACK_PX = 48;
const WIDE_LAYOUT = window.matchMedia("(min-width: 800px)");
const STORAGE_KEY = "sandbox.place";

// ---------------------------------------------------------------- state
const state = {
  world: null, // the last `world` frame
  personId: null,
  chats: new Map(), // chat id -> {…Chat, messages: Map(id -> Message)} in frame order
  openChatId: null,
  wantPrivateChat: false, // after switching person from a private chat: open theirs once it comes
  unread: new Map(), // chat id -> count of messages that came while the chat was not open
  socket: null,
  socketHasPerson: false, // false: connected without naming a person, only to learn who there is
  lastSocketOpened: true, // whether the last attempt got through (a refusal may mean a stale person)
  reconnectDelay: RECONNECT_FIRST_MS,
  reconnectTimer: null,
  pendingTaps: new Map(), // "chat:message" -> {data, timer}
  unseenBelow: 0, // new messages that came while the reader had scrolled up
  toastTimer: null,
};

const $ = (selector, root = document) => root.querySelector(selector);

/** A new element: el("div", {class: "x", dataset: {id: 1}}, child, "text"). */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "text") node.textContent = value;
    else if (name === "html") node.innerHTML = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

// ---------------------------------------------------------------- where we are (hash + storage)
function readPlace() {
  const fromHash = new URLSearchParams(location.hash.slice(1));
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || "{}") || {};
  } catch (error) {
    stored = {};
  }
  const number = (value) => (value === null || value === undefined || value === "" ? null : Number(value));
  const hashPerson = number(fromHash.get("person"));
  if (hashPerson !== null) return { person: hashPerson, chat: number(fromHash.get("chat")) };
  return { person: number(stored.person), chat: number(stored.chat) };
}

function savePlace() {
  const parts = [];
  if (state.personId !== null) parts.push(`person=${state.personId}`);
  if (state.openChatId !== null) parts.push(`chat=${state.openChatId}`);
  const hash = parts.length ? `#${parts.join("&")}` : "";
  if (location.hash !== hash) history.replaceState(null, "", `${location.pathname}${location.search}${hash}`);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ person: state.personId, chat: state.openChatId }));
  } catch (error) {
    // Private browsing may refuse storage; the hash still keeps the place.
  }
}

// ---------------------------------------------------------------- the server: actions
async function callApi(action, body) {
  let answer;
  try {
    const response = await fetch(`/api/${action}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    answer = await response.json().catch(() => ({ ok: false, error: `The server answered ${response.status}.` }));
  } catch (error) {
    answer = { ok: false, error: "The sandbox server cannot be reached." };
  }
  if (!answer.ok) showToast(answer.error || "Something went wrong.");
  return answer;
}

// ---------------------------------------------------------------- the server: frames
function connect() {
  clearTimeout(state.reconnectTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // Without a person (the very first visit), or when the remembered one was refused (a new
  // database has new ids), connect without one: its world frame says who there is, and we
  // reconnect as one of them.
  const withPerson = state.personId !== null && state.lastSocketOpened;
  const query = withPerson ? `?person=${encodeURIComponent(state.personId)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws${query}`);
  let opened = false;
  state.socket = socket;
  state.socketHasPerson = withPerson;
  socket.addEventListener("open", () => {
    if (state.socket !== socket) return;
    opened = true;
    state.reconnectDelay = RECONNECT_FIRST_MS;
    // The server resends everything on connect, so start from nothing rather than merge.
    state.chats.clear();
    state.unread.clear();
    setConnected(true);
  });
  socket.addEventListener("message", (event) => {
    if (state.socket === socket) handleFrame(JSON.parse(event.data));
  });
  socket.addEventListener("close", () => {
    if (state.socket !== socket) return; // replaced on purpose (person switched)
    state.socket = null;
    state.lastSocketOpened = opened || !withPerson;
    setConnected(false);
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  clearTimeout(state.reconnectTimer);
  state.reconnectTimer = setTimeout(connect, state.reconnectDelay);
  state.reconnectDelay = Math.min(state.reconnectDelay * 2, RECONNECT_MAX_MS);
}

function disconnect() {
  const socket = state.socket;
  state.socket = null; // first, so its close event does not schedule a reconnect
  clearTimeout(state.reconnectTimer);
  if (socket) socket.close();
  setConnected(false);
}

function setConnected(connected) {
  document.body.dataset.connected = String(connected);
  $("#sidebar-status").hidden = connected;
  renderChatHeader();
}

function handleFrame(frame) {
  switch (frame.type) {
    case "world":
      return onWorld(frame);
    case "chat":
      return onChat(frame.chat);
    case "message":
      return onMessage(frame.chat_id, frame.message);
    case "answer":
      return onAnswer(frame);
    case "closed":
      return showToast(frame.reason || "The sandbox server is going away.");
    default:
      return undefined;
  }
}

function onWorld(world) {
  state.world = world;
  const people = world.people || [];
  const known = people.some((person) => person.id === state.personId);
  if (!state.socketHasPerson || !known) {
    if (!known && people.length) switchPerson(people[0].id);
    else if (known) reconnectAs(state.personId);
    return;
  }
  forgetOldGroups();
  renderPeople();
  renderChatList();
  renderChatHeader();
  renderBottom();
  renderControls();
}

/** A group the person no longer sees (left it, or it became a supergroup with a new id). */
function forgetOldGroups() {
  const group = state.world.group;
  for (const [id, chat] of state.chats) {
    if (chat.type !== "private" && (group === null || id !== group.id || !currentPerson().in_group)) {
      state.chats.delete(id);
    }
  }
  // Group ids are negative in Telegram; an open group that is not the current one is the group
  // before it became a supergroup (or a group that is gone).
  if (isGroupId(state.openChatId) && (group === null || group.id !== state.openChatId)) {
    state.openChatId = group ? group.id : null;
    savePlace();
  }
}

function isGroupId(chatId) {
  return chatId !== null && chatId < 0;
}

function onChat(chatFrame) {
  const messages = new Map(chatFrame.messages.filter((m) => !m.deleted).map((m) => [m.id, m]));
  state.chats.set(chatFrame.id, { ...chatFrame, messages });
  // The person's own private chat replaces one of another person's (a switch, an edited hash).
  const openForeignPrivate = state.openChatId !== null && !isGroupId(state.openChatId);
  if (chatFrame.type === "private" && (state.wantPrivateChat || openForeignPrivate)) {
    state.wantPrivateChat = false;
    if (state.openChatId !== chatFrame.id) {
      state.openChatId = chatFrame.id;
      savePlace();
    }
  }
  chooseChatIfNone();
  renderChatList();
  if (chatFrame.id === state.openChatId) renderOpenChat();
}

function onMessage(chatId, message) {
  const chat = state.chats.get(chatId);
  if (!chat) return;
  const isNew = !chat.messages.has(message.id);
  if (message.deleted) chat.messages.delete(message.id);
  else chat.messages.set(message.id, message);
  if (isNew && !message.deleted && chatId !== state.openChatId && message.from.id !== state.personId) {
    state.unread.set(chatId, (state.unread.get(chatId) || 0) + 1);
  }
  renderChatList();
  if (chatId === state.openChatId) applyMessageToOpenChat(chat, message, isNew);
}

function onAnswer(answer) {
  // The person's other tabs get the answer too; only the tab that tapped acts on it (one /start).
  const tappedHere = state.pendingTaps.has(tapKey(answer.chat_id, answer.message_id));
  stopTapSpinner(answer.chat_id, answer.message_id);
  if (!tappedHere) return;
  if (answer.url) {
    followBotLink(answer.url);
  } else if (answer.text && answer.show_alert) {
    showAlert(answer.text);
  } else if (answer.text) {
    showToast(answer.text);
  }
}

// ---------------------------------------------------------------- people and chats
function currentPerson() {
  const people = (state.world && state.world.people) || [];
  return people.find((person) => person.id === state.personId) || { id: state.personId, name: "", in_group: false };
}

function peerColor(userId) {
  if (state.world && userId === state.world.bot.id) return BOT_COLOR;
  const index = ((state.world && state.world.people) || []).findIndex((person) => person.id === userId);
  return index >= 0 ? index % PEER_COLORS : Math.abs(Number(userId) || 0) % PEER_COLORS;
}

function initial(name) {
  return (Array.from((name || "?").trim())[0] || "?").toUpperCase();
}

/** Telegram gives a group the initials of its first two words ("Domino night": DN). */
function groupInitials(title) {
  const words = (title || "").trim().split(/\s+/).filter(Boolean);
  return words.length > 1 ? initial(words[0]) + initial(words[1]) : initial(title);
}

/** The chats of the list: the group first, then the private chat with the bot. A group the person
    is not in is still listed (as Telegram keeps a chat you left), to offer joining it. */
function visibleChats() {
  const chats = [...state.chats.values()];
  const group = state.world && state.world.group;
  if (group && !chats.some((chat) => chat.id === group.id)) {
    chats.push({
      id: group.id,
      type: group.type,
      title: group.title,
      messages: new Map(),
      commands: [],
      can_write: false,
      needs_start: false,
      placeholder: true,
    });
  }
  return chats.sort((a, b) => (a.type === "private") - (b.type === "private"));
}

function findChat(chatId) {
  return visibleChats().find((chat) => chat.id === chatId) || null;
}

function chooseChatIfNone() {
  // On a phone the chat list is the first screen; on a desktop a chat is always open.
  if (state.openChatId !== null || !WIDE_LAYOUT.matches) return;
  const first = visibleChats()[0];
  if (first) openChat(first.id);
}

function switchPerson(personId) {
  if (personId === state.personId && state.socket && state.socketHasPerson) return;
  if (personId !== state.personId) {
    // Keep the group open for the next person; a private chat becomes theirs.
    state.wantPrivateChat = state.openChatId !== null && !isGroupId(state.openChatId);
    if (state.wantPrivateChat) state.openChatId = null;
  }
  state.chats.clear();
  state.unread.clear();
  clearPendingTaps();
  closeMenus();
  closeWebApp(); // it was opened with the previous person's initData
  reconnectAs(personId);
  renderAll();
}

function reconnectAs(personId) {
  state.personId = personId;
  state.lastSocketOpened = true;
  savePlace();
  disconnect();
  connect();
}

function openChat(chatId) {
  if (state.openChatId !== chatId) $("#text").value = "";
  state.openChatId = chatId;
  state.unread.delete(chatId);
  savePlace();
  closeMenus();
  renderChatList();
  renderOpenChat();
}

function closeChat() {
  state.openChatId = null;
  savePlace();
  renderChatList();
  renderOpenChat();
}

// ---------------------------------------------------------------- rendering: sidebar
function renderAll() {
  renderPeople();
  renderChatList();
  renderOpenChat();
  renderControls();
}

function renderPeople() {
  const people = (state.world && state.world.people) || [];
  const chips = people.map((person) =>
    el(
      "button",
      {
        type: "button",
        class: `person-chip peer-${peerColor(person.id)}${person.id === state.personId ? " active" : ""}`,
        dataset: { person: person.id },
        role: "tab",
        "aria-selected": String(person.id === state.personId),
        title: person.name,
        "aria-label": person.name,
      },
      el("span", { class: "person-initial", text: initial(person.name) }),
      el("span", { class: "person-name", text: person.name }),
    ),
  );
  $("#people").replaceChildren(...chips);
}

function renderChatList() {
  const items = visibleChats().map((chat) => {
    const last = [...chat.messages.values()].pop();
    const unread = state.unread.get(chat.id) || 0;
    return el(
      "li",
      {
        class: `chat-entry${chat.id === state.openChatId ? " active" : ""}`,
        dataset: { chat: chat.id },
        role: "button",
        tabindex: "0",
      },
      chatAvatar(chat),
      el(
        "div",
        { class: "chat-entry-body" },
        el(
          "div",
          { class: "chat-entry-top" },
          el("span", { class: "chat-entry-title", text: chatTitle(chat) }),
          el("span", { class: "chat-entry-time", text: last ? shortTime(last.date) : "" }),
        ),
        el(
          "div",
          { class: "chat-entry-bottom" },
          el("span", { class: "chat-entry-preview" }, ...previewParts(chat, last)),
          unread ? el("span", { class: "badge", text: String(unread) }) : null,
        ),
      ),
    );
  });
  $("#chat-list").replaceChildren(...items);
}

function chatTitle(chat) {
  if (chat.type === "private") return (state.world && state.world.bot.name) || chat.title;
  return chat.title || (state.world && state.world.group && state.world.group.title) || "Group";
}

function chatAvatar(chat) {
  const isPrivate = chat.type === "private";
  const letters = isPrivate ? initial(chatTitle(chat)) : groupInitials(chatTitle(chat));
  return el("div", { class: `avatar peer-${isPrivate ? BOT_COLOR : GROUP_COLOR}`, "aria-hidden": "true", text: letters });
}

function previewParts(chat, last) {
  if (chat.placeholder) return [el("span", { class: "preview-note", text: "You are not a member" })];
  if (!last) return [];
  if (last.service) return [el("span", { class: "preview-note", text: last.service })];
  const parts = [];
  const mine = last.from.id === state.personId;
  if (mine || chat.type !== "private") {
    parts.push(el("span", { class: "preview-sender", text: `${mine ? "You" : last.from.name}: ` }));
  }
  parts.push(document.createTextNode(messageSummary(last)));
  return parts;
}

function messageSummary(message) {
  const text = plainText(message.html);
  if (message.photo) return text ? `🖼 ${text}` : "Photo";
  if (message.animation) return text ? `🎬 ${text}` : "GIF";
  if (message.document) return text ? `📎 ${text}` : message.document.name;
  return text;
}

function plainText(html) {
  const holder = document.createElement("template");
  // Line breaks and blocks become spaces, or their words would run together in a one-line preview.
  holder.innerHTML = (html || "").replace(/<br\s*\/?>|<\/?(pre|blockquote)>/gi, " ");
  // A preview must not give a spoiler away.
  holder.content.querySelectorAll(".tg-spoiler").forEach((spoiler) => {
    spoiler.textContent = "▒".repeat(Math.min(Math.max(spoiler.textContent.length, 3), 8));
  });
  return holder.content.textContent.replace(/\s+/g, " ").trim();
}

// ---------------------------------------------------------------- rendering: the open chat
function renderOpenChat() {
  const chat = state.openChatId !== null ? findChat(state.openChatId) : null;
  const main = $("#chat");
  if (chat) main.dataset.chatId = chat.id;
  else delete main.dataset.chatId;
  $("#app").classList.toggle("chat-open", Boolean(chat));
  $("#empty-chat").hidden = Boolean(chat);
  renderChatHeader();
  renderMessages(chat);
  renderBottom();
  renderCommandMenu();
}

function renderChatHeader() {
  const chat = state.openChatId !== null ? findChat(state.openChatId) : null;
  const header = $(".chat-header");
  header.hidden = !chat;
  if (!chat) return;
  const avatar = chatAvatar(chat);
  $("#chat-avatar").className = avatar.className;
  $("#chat-avatar").textContent = avatar.textContent;
  $("#chat-title").textContent = chatTitle(chat);
  $("#chat-subtitle").textContent = document.body.dataset.connected === "true" ? chatSubtitle(chat) : "connecting…";
}

function chatSubtitle(chat) {
  if (chat.type === "private") return "bot";
  const members = ((state.world && state.world.people) || []).filter((person) => person.in_group).length + 1;
  return `${members} members`;
}

function renderMessages(chat) {
  const list = $("#messages");
  const nodes = chat ? [...chat.messages.values()].map((message) => messageNode(chat, message)) : [];
  list.replaceChildren(...nodes);
  decorateRuns(list);
  hideNewMessagesArrow();
  scrollToBottom();
}

/** A message frame for the open chat: upsert or remove one node, keeping the reader's place. */
function applyMessageToOpenChat(chat, message, isNew) {
  const list = $("#messages");
  const wasAtBottom = isAtBottom();
  const existing = list.querySelector(`.message[data-id="${message.id}"]`);
  if (message.deleted) {
    if (existing) existing.remove();
  } else if (existing) {
    existing.replaceWith(messageNode(chat, message));
  } else {
    insertInOrder(list, messageNode(chat, message));
  }
  decorateRuns(list);
  if (wasAtBottom) scrollToBottom();
  else if (isNew && !message.deleted) showNewMessagesArrow();
}

function insertInOrder(list, node) {
  const id = Number(node.dataset.id);
  const after = [...list.querySelectorAll(".message")].find((other) => Number(other.dataset.id) > id);
  list.insertBefore(node, after || null);
}

/** Telegram draws a run of messages from one sender as a group: the name on the first, the
    avatar and the bubble's tail on the last; and a date pill where the day changes. */
function decorateRuns(list) {
  list.querySelectorAll(".date-divider").forEach((divider) => divider.remove());
  const messages = [...list.querySelectorAll(".message")];
  let previousDay = null;
  messages.forEach((node, index) => {
    const day = dayLabel(Number(node.dataset.date));
    if (day !== previousDay) {
      list.insertBefore(el("div", { class: "date-divider" }, el("span", { class: "pill", text: day })), node);
    }
    const before = messages[index - 1];
    const after = messages[index + 1];
    const sameSender = (other) =>
      other && !other.classList.contains("service") && other.dataset.from === node.dataset.from;
    const nextDay = after ? dayLabel(Number(after.dataset.date)) : null;
    node.classList.toggle("first-in-run", !sameSender(before) || day !== previousDay);
    node.classList.toggle("last-in-run", !sameSender(after) || nextDay !== day);
    previousDay = day;
  });
}

function messageNode(chat, message) {
  const base = { dataset: { id: message.id, from: message.from.id, date: message.date } };
  if (message.service) {
    return el("div", { ...base, class: "message service" }, el("span", { class: "pill text", text: message.service }));
  }
  const mine = message.from.id === state.personId;
  const inGroup = chat.type !== "private";
  const classes = ["message", mine ? "outgoing" : "incoming"];
  if (inGroup && !mine) classes.push("with-avatar");
  const hasKeyboard = Boolean(message.buttons && message.buttons.length);
  const media = message.photo || message.animation;
  const bodyClasses = ["message-body", media ? "has-photo" : "", hasKeyboard ? "has-keyboard" : ""];
  const body = el("div", { class: bodyClasses.join(" ").trim() }, bubbleNode(chat, message, mine));
  if (hasKeyboard) body.append(keyboardNode(chat, message));
  const avatar =
    inGroup && !mine
      ? el("div", {
          class: `avatar small peer-${peerColor(message.from.id)}`,
          "aria-hidden": "true",
          text: initial(message.from.name),
        })
      : null;
  return el("div", { ...base, class: classes.join(" ") }, avatar, body);
}

function bubbleNode(chat, message, mine) {
  const text = message.html || "";
  const classes = ["bubble"];
  const media = message.photo || message.animation;
  if (media) classes.push("has-photo");
  if (media && !text) classes.push("photo-only");
  const bubble = el("div", { class: classes.join(" ") });
  if (chat.type !== "private" && !mine) {
    bubble.append(el("div", { class: `sender peer-text-${peerColor(message.from.id)}`, text: message.from.name }));
  }
  if (message.reply_to) bubble.append(replyNode(chat, message.reply_to));
  if (message.photo) bubble.append(photoNode(message.photo));
  if (message.animation) bubble.append(animationNode(message.animation));
  if (message.document) bubble.append(documentNode(message.document));
  const meta = metaNode(message);
  const content = el("div", { class: "content" });
  if (text) content.append(el("div", { class: "text", html: text }));
  // An invisible copy of the time keeps the last line of text clear of the real one in the corner.
  content.append(el("span", { class: "meta-spacer", "aria-hidden": "true" }, ...metaParts(message)), meta);
  bubble.append(content);
  return bubble;
}

function metaParts(message) {
  return [message.edited ? el("span", { class: "edited", text: "edited" }) : null, el("time", { text: shortTime(message.date) })];
}

function metaNode(message) {
  return el("span", { class: "meta" }, ...metaParts(message));
}

function replyNode(chat, replyToId) {
  const original = chat.messages.get(replyToId);
  const name = original ? (original.from.id === state.personId ? "You" : original.from.name) : "";
  const color = original ? peerColor(original.from.id) : BOT_COLOR;
  return el(
    "div",
    { class: `reply peer-bar-${color}`, dataset: { replyTo: replyToId } },
    el("div", { class: `reply-name peer-text-${color}`, text: name || "Message" }),
    el("div", { class: "reply-text", text: original ? messageSummary(original) || " " : "Deleted message" }),
  );
}

function photoNode(photo) {
  const image = el("img", { class: "photo", src: photo.url, alt: "Photo", decoding: "async" });
  if (photo.width && photo.height) {
    // Known proportions keep the scroll position steady while the picture loads.
    image.width = photo.width;
    image.height = photo.height;
    image.style.aspectRatio = `${photo.width} / ${photo.height}`;
  }
  return image;
}

function animationNode(animation) {
  // As Telegram plays a GIF or a sound-less MP4: at once, silently, over and over.
  const video = el("video", { class: "photo animation", src: animation.url, "aria-label": "GIF" });
  Object.assign(video, { autoplay: true, loop: true, muted: true, playsInline: true });
  if (animation.width && animation.height) {
    video.width = animation.width;
    video.height = animation.height;
    video.style.aspectRatio = `${animation.width} / ${animation.height}`;
  }
  return video;
}

function documentNode(documentInfo) {
  return el(
    "a",
    { class: "document", href: documentInfo.url, download: documentInfo.name || true, title: documentInfo.name },
    el(
      "span",
      { class: "document-icon", "aria-hidden": "true" },
      svgIcon("M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zm4 18H6V4h7v5h5z"),
    ),
    el(
      "span",
      { class: "document-info" },
      el("span", { class: "document-name", text: documentInfo.name || "document" }),
      el("span", { class: "document-size", text: humanSize(documentInfo.size) }),
    ),
  );
}

function svgIcon(path) {
  const namespace = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(namespace, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  const shape = document.createElementNS(namespace, "path");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

function keyboardNode(chat, message) {
  const rows = message.buttons.map((row) =>
    el("div", { class: "keyboard-row" }, ...row.map((button) => keyboardButton(chat, message, button))),
  );
  return el("div", { class: "keyboard" }, ...rows);
}

function keyboardButton(chat, message, button) {
  const isWebApp = typeof button.web_app === "string";
  const isUrl = isWebApp || (button.url !== undefined && button.url !== null);
  const node = el(
    "button",
    {
      type: "button",
      class: `key${isUrl ? " url" : ""}`,
      dataset: isWebApp
        ? { webApp: button.web_app }
        : isUrl
          ? { url: button.url }
          : { data: button.data === undefined ? "" : button.data },
      title: isWebApp ? button.web_app : isUrl ? button.url : null,
    },
    el("span", { class: "key-text", text: button.text }),
  );
  const pending = state.pendingTaps.get(tapKey(chat.id, message.id));
  if (!isUrl && pending && pending.data === button.data) node.classList.add("loading");
  node.addEventListener("click", () => {
    if (isWebApp) openWebApp(button.web_app);
    else if (isUrl) openUrl(button.url);
    else tapButton(chat.id, message.id, button.data, node);
  });
  return node;
}

// A Mini App button: the bot's table page in a frame over the chat, with the initData a
// Telegram client would hand it (the server signs it for the current person).
async function openWebApp(url) {
  const answer = await callApi("webapp", { person: state.personId, url });
  if (!answer.ok) return;
  const frame = $("#webapp-frame");
  frame.src = answer.url;
  $("#webapp").hidden = false;
}

function closeWebApp() {
  $("#webapp").hidden = true;
  $("#webapp-frame").src = "about:blank";
}

// ---------------------------------------------------------------- scrolling
function isAtBottom() {
  const list = $("#messages");
  return list.scrollHeight - list.scrollTop - list.clientHeight < AT_BOTTOM_SLACK_PX;
}

function scrollToBottom() {
  const list = $("#messages");
  list.scrollTop = list.scrollHeight;
  // Pictures without known sizes may still grow the list; follow them once they have.
  requestAnimationFrame(() => {
    list.scrollTop = list.scrollHeight;
  });
}

function showNewMessagesArrow() {
  state.unseenBelow += 1;
  $("#new-messages-count").textContent = String(state.unseenBelow);
  $("#new-messages").hidden = false;
}

function hideNewMessagesArrow() {
  state.unseenBelow = 0;
  $("#new-messages").hidden = true;
}

// ---------------------------------------------------------------- buttons and links
function tapKey(chatId, messageId) {
  return `${chatId}:${messageId}`;
}

async function tapButton(chatId, messageId, data, node) {
  const key = tapKey(chatId, messageId);
  if (state.pendingTaps.has(key)) return; // Telegram too ignores taps while one is answered
  const timer = setTimeout(() => stopTapSpinner(chatId, messageId), TAP_TIMEOUT_MS);
  state.pendingTaps.set(key, { data, timer });
  node.classList.add("loading");
  const answer = await callApi("tap", { person: state.personId, chat_id: chatId, message_id: messageId, data });
  if (!answer.ok) stopTapSpinner(chatId, messageId);
}

function stopTapSpinner(chatId, messageId) {
  const key = tapKey(chatId, messageId);
  const pending = state.pendingTaps.get(key);
  if (pending) clearTimeout(pending.timer);
  state.pendingTaps.delete(key);
  if (chatId === state.openChatId) {
    const node = $(`#messages .message[data-id="${messageId}"]`);
    if (node) node.querySelectorAll(".key.loading").forEach((key) => key.classList.remove("loading"));
  }
}

function clearPendingTaps() {
  state.pendingTaps.forEach((pending) => clearTimeout(pending.timer));
  state.pendingTaps.clear();
}

/** A t.me link to the bot with a start payload is followed inside the sandbox, as Telegram would. */
function isBotStartLink(url) {
  const username = state.world && state.world.bot.username;
  if (!username) return false;
  try {
    const parsed = new URL(url, location.href);
    const host = parsed.hostname.toLowerCase();
    const path = parsed.pathname.replace(/^\/+|\/+$/g, "").toLowerCase();
    return (host === "t.me" || host === "telegram.me") && path === username.toLowerCase() && parsed.searchParams.has("start");
  } catch (error) {
    return false;
  }
}

function openUrl(url) {
  if (isBotStartLink(url)) followBotLink(url);
  else window.open(url, "_blank", "noopener");
}

async function followBotLink(url) {
  const answer = await callApi("link", { person: state.personId, url });
  if (answer.ok && answer.chat_id !== undefined) openChat(answer.chat_id);
}

// ---------------------------------------------------------------- composer and bottom bar
function renderBottom() {
  const chat = state.openChatId !== null ? findChat(state.openChatId) : null;
  const bottom = $("#bottom");
  bottom.hidden = !chat;
  if (!chat) return;
  const canWrite = chat.can_write && !chat.placeholder;
  const needsStart = chat.type === "private" && chat.needs_start;
  $("#composer").hidden = !canWrite || needsStart;
  $("#start-button").hidden = !(canWrite && needsStart);
  $("#not-member").hidden = canWrite;
  if (!canWrite || needsStart) closeCommandMenu();
}

async function sendText(text) {
  const chatId = state.openChatId;
  if (!text.trim() || chatId === null) return false;
  const answer = await callApi("send", { person: state.personId, chat_id: chatId, text });
  return answer.ok;
}

async function sendFromComposer() {
  const field = $("#text");
  const text = field.value;
  if (!text.trim()) return;
  field.value = "";
  fitComposer();
  closeCommandMenu();
  // Writing always brings the reader down to the newest messages, as in Telegram.
  scrollToBottom();
  hideNewMessagesArrow();
  if (!(await sendText(text)) && !field.value) {
    field.value = text; // a refused message is not lost
    fitComposer();
  }
}

function fitComposer() {
  const field = $("#text");
  field.style.height = "auto";
  field.style.height = `${Math.min(field.scrollHeight, 160)}px`;
}

// ---------------------------------------------------------------- command menu
function commandMenuFilter() {
  const value = $("#text").value;
  return value.startsWith("/") && !/\s/.test(value) ? value.slice(1).toLowerCase() : null;
}

function renderCommandMenu() {
  const menu = $("#command-menu");
  if (menu.hidden) return;
  const chat = state.openChatId !== null ? findChat(state.openChatId) : null;
  const filter = commandMenuFilter() || "";
  const commands = ((chat && chat.commands) || []).filter((item) => item.command.toLowerCase().startsWith(filter));
  const entries = commands.map((item) =>
    el(
      "button",
      { type: "button", class: "command", dataset: { command: item.command } },
      el("span", { class: "command-name", text: `/${item.command}` }),
      el("span", { class: "command-description", text: item.description }),
    ),
  );
  if (!entries.length) entries.push(el("div", { class: "command-empty", text: "No commands" }));
  menu.replaceChildren(...entries);
}

function openCommandMenu() {
  $("#command-menu").hidden = false;
  $("#commands-button").classList.add("active");
  renderCommandMenu();
}

function closeCommandMenu() {
  $("#command-menu").hidden = true;
  $("#commands-button").classList.remove("active");
}

// ---------------------------------------------------------------- controls (the ⋮ menu)
function renderControls() {
  const person = currentPerson();
  const group = state.world && state.world.group;
  $("#controls-title").textContent = person.name ? `You are ${person.name}` : "";
  const rename = $("#rename");
  if (document.activeElement !== rename) rename.value = person.name || "";
  $("#language").value = person.language || "en";
  $("#add-to-group").textContent = `Add ${person.name || "me"} to the group`;
  $("#leave-group").textContent = "Leave the group";
  $("#add-to-group").classList.toggle("dim", Boolean(person.in_group) || !group);
  $("#leave-group").classList.toggle("dim", !person.in_group);
  $("#supergroup").classList.toggle("dim", !group || group.type === "supergroup");
  $("#block").textContent = person.blocked ? "Unblock bot" : "Block bot";
  $("#block").classList.toggle("danger", !person.blocked);
}

function openControls() {
  renderControls();
  $("#controls").hidden = false;
  $("#controls-button").classList.add("active");
}

function closeControls() {
  $("#controls").hidden = true;
  $("#controls-button").classList.remove("active");
}

function closeMenus() {
  closeControls();
  closeCommandMenu();
}

async function renamePerson() {
  const name = $("#rename").value.trim();
  if (!name || name === currentPerson().name) return;
  await callApi("person", { person: state.personId, name });
}

async function controlAction(action, body) {
  closeControls();
  await callApi(action, body);
}

// ---------------------------------------------------------------- toast, alert, photo viewer
function showToast(text) {
  const toast = $("#toast");
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(state.toastTimer);
  state.toastTimer = setTimeout(() => {
    toast.hidden = true;
  }, TOAST_MS);
}

function showAlert(text) {
  $("#alert-text").textContent = text;
  $("#alert").hidden = false;
  $("#alert-ok").focus();
}

function closeAlert() {
  $("#alert").hidden = true;
}

function openViewer(source) {
  $("#viewer-image").src = source;
  $("#viewer").hidden = false;
}

function closeViewer() {
  $("#viewer").hidden = true;
  $("#viewer-image").removeAttribute("src");
}

// ---------------------------------------------------------------- time and sizes
function shortTime(unix) {
  return new Date(unix * 1000).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
}

function dayLabel(unix) {
  const date = new Date(unix * 1000);
  const today = new Date();
  if (date.toDateString() === today.toDateString()) return "Today";
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  if (date.toDateString() === yesterday.toDateString()) return "Yesterday";
  const sameYear = date.getFullYear() === today.getFullYear();
  return date.toLocaleDateString([], { month: "long", day: "numeric", year: sameYear ? undefined : "numeric" });
}

function humanSize(bytes) {
  const size = Number(bytes) || 0;
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

// ---------------------------------------------------------------- wiring
function onMessagesClick(event) {
  const spoiler = event.target.closest(".tg-spoiler");
  if (spoiler && !spoiler.classList.contains("revealed")) {
    spoiler.classList.add("revealed");
    event.preventDefault();
    return;
  }
  const photo = event.target.closest("img.photo");
  if (photo) {
    openViewer(photo.currentSrc || photo.src);
    return;
  }
  const link = event.target.closest(".text a[href]");
  if (link && isBotStartLink(link.href)) {
    event.preventDefault();
    followBotLink(link.href);
    return;
  }
  const reply = event.target.closest(".reply");
  if (reply) {
    const original = $(`#messages .message[data-id="${reply.dataset.replyTo}"]`);
    if (original) original.scrollIntoView({ block: "center", behavior: "smooth" });
  }
}

function onGlobalKeydown(event) {
  if (event.key !== "Escape") return;
  if (!$("#alert").hidden) closeAlert();
  else if (!$("#viewer").hidden) closeViewer();
  else if (!$("#webapp").hidden) closeWebApp();
  else closeMenus();
}

function onDocumentClick(event) {
  // A click outside a menu closes it, as a popup menu does.
  if (!$("#controls").hidden && !event.target.closest("#controls, #controls-button")) closeControls();
  if (!$("#command-menu").hidden && !event.target.closest("#command-menu, #commands-button, #text")) {
    closeCommandMenu();
  }
}

function wireSidebar() {
  $("#people").addEventListener("click", (event) => {
    const chip = event.target.closest("[data-person]");
    if (chip) switchPerson(Number(chip.dataset.person));
  });
  const openEntry = (event) => {
    const entry = event.target.closest("[data-chat]");
    if (entry) openChat(Number(entry.dataset.chat));
  };
  $("#chat-list").addEventListener("click", openEntry);
  $("#chat-list").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openEntry(event);
    }
  });
}

function wireChat() {
  $("#back").addEventListener("click", closeChat);
  $("#messages").addEventListener("click", onMessagesClick);
  $("#messages").addEventListener("scroll", () => {
    if (isAtBottom()) hideNewMessagesArrow();
  });
  $("#new-messages").addEventListener("click", () => {
    hideNewMessagesArrow();
    $("#messages").scrollTo({ top: $("#messages").scrollHeight, behavior: "smooth" });
  });
  $("#start-button").addEventListener("click", () => callApi("start", { person: state.personId }));
  $("#join-group").addEventListener("click", () => callApi("group/add", { person: state.personId }));
}

function wireComposer() {
  const field = $("#text");
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      sendFromComposer();
    }
  });
  field.addEventListener("input", () => {
    fitComposer();
    if (commandMenuFilter() !== null) openCommandMenu();
    else closeCommandMenu();
  });
  $("#send").addEventListener("click", sendFromComposer);
  $("#commands-button").addEventListener("click", () => {
    if ($("#command-menu").hidden) openCommandMenu();
    else closeCommandMenu();
  });
  $("#command-menu").addEventListener("click", (event) => {
    const entry = event.target.closest(".command[data-command]");
    if (!entry) return;
    closeCommandMenu();
    field.value = "";
    fitComposer();
    sendText(`/${entry.dataset.command}`);
  });
}

function wireControls() {
  // Opening is idempotent (no toggle): a second tap never hides the menu one wants to use.
  $("#controls-button").addEventListener("click", openControls);
  $("#rename").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      renamePerson();
    }
  });
  $("#rename").addEventListener("change", renamePerson);
  $("#language").addEventListener("change", (event) =>
    callApi("person", { person: state.personId, language: event.target.value }),
  );
  $("#add-to-group").addEventListener("click", () => controlAction("group/add", { person: state.personId }));
  $("#leave-group").addEventListener("click", () => controlAction("group/leave", { person: state.personId }));
  $("#supergroup").addEventListener("click", () => controlAction("group/supergroup", {}));
  $("#block").addEventListener("click", () =>
    controlAction("block", { person: state.personId, blocked: !currentPerson().blocked }),
  );
}

function wireOverlays() {
  $("#alert-ok").addEventListener("click", closeAlert);
  $("#alert").addEventListener("click", (event) => {
    if (event.target === event.currentTarget) closeAlert(); // the dimmed backdrop, as in Telegram
  });
  $("#viewer").addEventListener("click", closeViewer);
  $("#webapp-close").addEventListener("click", closeWebApp);
  document.addEventListener("keydown", onGlobalKeydown);
  document.addEventListener("click", onDocumentClick, true);
}

function onHashChange() {
  const place = readPlace();
  if (place.person !== null && place.person !== state.personId) {
    state.openChatId = place.chat;
    switchPerson(place.person);
  } else if (place.chat !== state.openChatId) {
    if (place.chat === null) closeChat();
    else openChat(place.chat);
  }
}

function start() {
  wireSidebar();
  wireChat();
  wireComposer();
  wireControls();
  wireOverlays();
  window.addEventListener("hashchange", onHashChange);
  WIDE_LAYOUT.addEventListener("change", () => {
    chooseChatIfNone();
    renderOpenChat();
  });
  const place = readPlace();
  state.personId = place.person;
  state.openChatId = place.chat;
  renderAll();
  connect();
}

document.addEventListener("DOMContentLoaded", start);
