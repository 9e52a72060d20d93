/// The point-of-sale page's script (PointOfSalePage.swift): the keypad, the sale (a request
/// through `POST /api/requests`, its code from `/api/requests/{id}/qr.svg`) and its state
/// from the node's event stream. EventSource cannot send the bearer token, so the stream is
/// read with fetch() and its frames (as Sources/Node/NodeAPI/EventStream.swift writes them) parsed here.
/// When the node takes Cashu, the keypad switches to Cashu: the sale is a NUT-18 request
/// (`/api/cashu/request`), paid when a token of its unit and amount lands (`event: cashu`).
enum PointOfSaleScript {
    static let javascript = #"""
        "use strict";
        (() => {
          // Amounts: the only place base units become text and back. The API speaks base units
          // as decimal strings; /api/status says what the page charges in (`charge`: the home
          // chain's coin, its symbol and decimals when the node knows them), read at connect.
          const UNIT = { symbol: "", decimals: 0 };
          // What the chain's coin reads as, kept while the keypad charges in Cashu.
          const CHAIN_UNIT = { symbol: "", decimals: 0 };
          // Cashu units the node's mints issue (from /api/cashu/balance), and their decimals.
          let cashuUnits = [];
          let cashuUnit = null; // the unit charged in, or null: Tender
          const CASHU_DECIMALS = { usd: 2, eur: 2, gbp: 2 };

          // Base units ("1250000") to what people read ("1250000 base units", or "12.50 EUR"
          // with decimals 2): trailing zeros of the fraction dropped, two digits kept, no
          // thousands separators (as the CLI writes and reads amounts).
          function formatAmount(baseUnits) {
            let digits = String(baseUnits).replace(/^0+(?=\d)/, "");
            let fraction = "";
            if (UNIT.decimals > 0) {
              digits = digits.padStart(UNIT.decimals + 1, "0");
              fraction = digits.slice(-UNIT.decimals);
              digits = digits.slice(0, -UNIT.decimals);
              const kept = Math.max(Math.min(UNIT.decimals, 2), fraction.replace(/0+$/, "").length);
              fraction = fraction.slice(0, kept);
            }
            const text = fraction ? digits + "." + fraction : digits;
            return text + " " + (UNIT.symbol || "base units");
          }

          // What is being typed, as typed: every zero pressed shows (two decimals at least
          // when the coin has them), with the unit.
          function formatTyped(text) {
            if (!text) return formatAmount("0");
            const [whole, fraction] = text.split(".");
            let shown = (whole || "0").replace(/^0+(?=\d)/, "");
            if (UNIT.decimals > 0) {
              shown += "." + (fraction || "").padEnd(Math.min(UNIT.decimals, 2), "0");
            }
            return shown + " " + (UNIT.symbol || "base units");
          }

          // What was typed ("1250", "12.5") to base units ("1250", "1250" with decimals 2), "0"
          // for nothing yet, null when it is not an amount. Strings throughout: amounts can
          // pass 2^53, where JavaScript numbers stop being exact.
          function parseAmount(typed) {
            const match = /^(\d*)(?:\.(\d*))?$/.exec(String(typed).replace(/,/g, ""));
            if (!match) return null;
            const fraction = match[2] === undefined ? "" : match[2];
            if (fraction.length > UNIT.decimals || (match[2] !== undefined && UNIT.decimals === 0)) return null;
            const units = (match[1] + fraction.padEnd(UNIT.decimals, "0")).replace(/^0+/, "");
            return units === "" ? "0" : units;
          }

          const TOKEN_KEY = "tender.pos.token";
          const LIFETIME_KEY = "tender.pos.expiresIn";
          const DEFAULT_LIFETIME = 300; // seconds a request stays payable: the customer is at the stall
          const LONGEST_TYPED = 15;
          const STALL_MS = 40000; // the node sends a comment every 15 s: silence this long is a dead link
          const $ = (id) => document.getElementById(id);

          let token = null;
          let typed = "";
          let sale = null; // { requestId, amount, memo, typed, deadline (local ms), codeURL, cashu }
          let retryMs = 2000;
          let streamGeneration = 0;
          let streamAttempt = null;
          let ticker = null;
          let expiryCheck = null;

          const screen = () => document.body.dataset.screen;
          const show = (name) => { document.body.dataset.screen = name; };
          const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

          class APIError extends Error {
            constructor(status, reason) { super(reason); this.status = status; }
          }

          // Every /api/ call carries the token; a refusal comes back with the node's reason.
          async function api(method, path, body) {
            const headers = { Authorization: "Bearer " + token };
            if (body !== undefined) headers["Content-Type"] = "application/json";
            let response;
            try {
              response = await fetch(path, {
                method, headers, cache: "no-store",
                body: body === undefined ? undefined : JSON.stringify(body),
              });
            } catch (_) {
              throw new APIError(0, "the node cannot be reached");
            }
            if (!response.ok) {
              let reason = "HTTP " + response.status;
              try { reason = (await response.json()).reason || reason; } catch (_) {}
              throw new APIError(response.status, reason);
            }
            return response;
          }
          const apiJSON = async (method, path, body) => (await api(method, path, body)).json();

          // The token arrives in the fragment (never sent to the server) and must not stay in
          // the address bar, where history and anyone looking would keep it.
          function takeSettingsFromFragment() {
            if (location.hash.length < 2) return;
            const settings = new URLSearchParams(location.hash.slice(1));
            const given = (settings.get("token") || "").trim();
            if (given) sessionStorage.setItem(TOKEN_KEY, given);
            const lifetime = settings.get("expires") || "";
            if (/^\d+$/.test(lifetime)) sessionStorage.setItem(LIFETIME_KEY, lifetime);
            history.replaceState(null, "", location.pathname + location.search);
          }

          function lifetime() {
            const seconds = Number(sessionStorage.getItem(LIFETIME_KEY));
            return seconds >= 1 && seconds <= 86400 ? seconds : DEFAULT_LIFETIME;
          }

          function askForToken(refused) {
            stopEvents();
            endSaleTimers();
            setLink(false);
            document.body.dataset.tokenRefused = String(refused);
            $("token-message").textContent = refused
              ? "The node refused this token. Enter the token from the api-token file in the node's data directory."
              : "Enter the API token: the api-token file in the node's data directory.";
            show("token");
            $("token-input").focus();
          }

          // Checks the token once, then follows the node's events and opens the keypad.
          // The charge unit from /api/status; base units while the node knows no symbol.
          function setUnit(charge) {
            const known = charge && typeof charge.symbol === "string" && Number.isInteger(charge.decimals);
            CHAIN_UNIT.symbol = known ? charge.symbol : "";
            CHAIN_UNIT.decimals = known ? Math.min(Math.max(charge.decimals, 0), 36) : 0;
            chargeIn(cashuUnit);
          }

          // The keypad charges in the chain's coin, or in a Cashu unit.
          function chargeIn(unit) {
            cashuUnit = unit && cashuUnits.includes(unit) ? unit : null;
            UNIT.symbol = cashuUnit || CHAIN_UNIT.symbol;
            UNIT.decimals = cashuUnit ? (CASHU_DECIMALS[cashuUnit] || 0) : CHAIN_UNIT.decimals;
            const next = cashuUnit === null ? cashuUnits[0] : cashuUnits[cashuUnits.indexOf(cashuUnit) + 1];
            $("pay-with").hidden = cashuUnits.length === 0;
            $("pay-with").textContent = next ? "Charge in Cashu " + next : "Charge in " + (CHAIN_UNIT.symbol || "Tender");
            $("pay-with").dataset.next = next || "";
            typed = "";
            if (screen() === "keypad") showEntry();
          }

          // Whether the node takes Cashu, and in which units (none: the switch stays hidden).
          async function learnCashu() {
            try {
              const wallet = await apiJSON("GET", "/api/cashu/balance");
              cashuUnits = Array.isArray(wallet.units) ? wallet.units.filter((u) => typeof u === "string") : [];
            } catch (_) {
              cashuUnits = [];
            }
            chargeIn(cashuUnit);
          }

          async function connect() {
            show("start");
            $("start-message").textContent = "Connecting to the node…";
            for (;;) {
              try {
                const status = await apiJSON("GET", "/api/status");
                await learnCashu();
                setUnit(status.charge);
                break;
              } catch (error) {
                if (error.status === 401) return askForToken(true);
                $("start-message").textContent = "Cannot reach the node (" + error.message + "). Trying again…";
                await sleep(3000);
              }
            }
            document.body.dataset.tokenRefused = "false";
            followEvents();
            newSale(false);
          }

          // The keypad: digits shift in on the right; no leading zeros; at most one point.
          function press(key) {
            if (screen() !== "keypad") return;
            let next;
            if (key === "back") next = typed.slice(0, -1);
            else if (key === "clear") next = "";
            else if (key === ".") next = typed.includes(".") ? typed : (typed || "0") + ".";
            else if (typed === "" && /^0+$/.test(key)) return;
            else next = typed + key;
            // A key refused says why, where the amount is (role="alert").
            if (next.length > LONGEST_TYPED) return refuse("At most " + LONGEST_TYPED + " digits.");
            if (parseAmount(next) === null) {
              return refuse(UNIT.decimals > 0
                ? (UNIT.symbol || "This coin") + " has " + UNIT.decimals + " decimals."
                : "Whole units only.");
            }
            typed = next;
            $("entry-error").textContent = "";
            showEntry();
          }

          function refuse(reason) {
            $("entry-error").textContent = reason;
          }

          function showAmount(element, units) {
            const text = formatAmount(units);
            element.textContent = text;
            // The stylesheet sizes it to fit one line (a CSSOM property: the policy allows it).
            element.style.setProperty("--chars", String(Math.max(4, text.length)));
          }

          function showEntry() {
            const units = parseAmount(typed) || "0";
            const text = formatTyped(typed);
            $("amount").textContent = text;
            $("amount").style.setProperty("--chars", String(Math.max(4, text.length)));
            $("clear").disabled = typed === "";
            $("charge").disabled = units === "0" || screen() === "charging";
            $("charge").textContent = screen() === "charging" ? "Creating the request…"
              : units === "0" ? "Charge" : "Charge " + formatAmount(units);
            $("key-extra").textContent = UNIT.decimals > 0 ? "." : "00";
            $("key-extra").dataset.key = UNIT.decimals > 0 ? "." : "00";
          }

          async function charge() {
            const units = parseAmount(typed);
            if (screen() !== "keypad" || units === null || units === "0") return;
            const memo = $("memo").value.trim();
            $("entry-error").textContent = "";
            show("charging");
            showEntry();
            try {
              if (cashuUnit) return await chargeCashu(units, memo);
              const request = await apiJSON("POST", "/api/requests", { amount: units, memo, expiresIn: lifetime() });
              const code = await (await api("GET", "/api/requests/" + request.requestId + "/qr.svg")).blob();
              await startSale(request, URL.createObjectURL(code));
            } catch (error) {
              if (error.status === 401) return askForToken(true);
              show("keypad");
              showEntry();
              $("entry-error").textContent = "Could not charge: " + error.message;
            }
          }

          // A NUT-18 request, in-band: the payer's Cashu wallet shows the token back to the
          // node's camera (or a till hands it in); the node holds no state for it, so the page
          // keeps its deadline and takes the first token of its unit and amount that lands.
          async function chargeCashu(units, memo) {
            const id = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
            const query = "amount=" + units + "&unit=" + encodeURIComponent(cashuUnit) + "&id=" + id
              + (memo ? "&memo=" + encodeURIComponent(memo) : "");
            const request = await apiJSON("GET", "/api/cashu/request?" + query);
            const code = await (await api("GET", "/api/cashu/request/qr.svg?" + query)).blob();
            await startSale({ requestId: "cashu-" + id, amount: request.amount, memo, cashu: cashuUnit, text: request.request },
              URL.createObjectURL(code));
          }

          async function startSale(request, codeURL) {
            sale = {
              requestId: request.requestId, amount: request.amount, memo: request.memo, typed,
              deadline: Date.now() + lifetime() * 1000, codeURL, cashu: request.cashu || null,
            };
            $("sale-how").textContent = sale.cashu
              ? "Pay with a Cashu wallet: scan this code, then show the token to the camera."
              : "Pay with a Tender wallet: scan this code, or pay over Bluetooth nearby.";
            if (sale.cashu) $("sale-screen").dataset.cashuRequest = request.text;
            const image = $("code");
            image.src = codeURL;
            try { await image.decode(); } catch (_) {}
            $("sale-screen").dataset.requestId = request.requestId;
            showAmount($("sale-amount"), request.amount);
            $("sale-memo").textContent = request.memo;
            setSaleState("waiting");
            showCountdown();
            ticker = setInterval(showCountdown, 1000);
            checkSaleAt(sale.deadline - Date.now() + 500);
          }

          function setSaleState(state) {
            show(state);
            $("status-text").textContent = { waiting: "Waiting for payment", paying: "Paying…", expired: "Expired: not paid" }[state];
            $("sale-label").textContent = state === "expired" ? "Amount" : "Scan to pay";
            $("cancel").textContent = state === "expired" ? "New sale" : "Cancel";
            if (state === "expired") $("countdown").textContent = "";
          }

          function showCountdown() {
            if (!sale || (screen() !== "waiting" && screen() !== "paying")) return;
            const left = Math.max(0, Math.ceil((sale.deadline - Date.now()) / 1000));
            $("countdown").textContent = "Expires in " + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
          }

          // The node's clock decides expiry: at the local deadline, ask; ask again while it waits.
          function checkSaleAt(delay) {
            clearTimeout(expiryCheck);
            expiryCheck = setTimeout(async () => {
              const state = await checkSale();
              if (state !== "paid" && state !== "expired" && sale && (screen() === "waiting" || screen() === "paying")) {
                checkSaleAt(2000);
              }
            }, Math.max(0, delay));
          }

          // The sale as the node sees it: catches a payment announced while the stream was down.
          async function checkSale() {
            if (!sale || (screen() !== "waiting" && screen() !== "paying")) return null;
            if (sale.cashu) {
              if (Date.now() < sale.deadline) return "waiting";
              expired();
              return "expired";
            }
            const id = sale.requestId;
            try {
              const current = await apiJSON("GET", "/api/requests/" + id);
              if (!sale || sale.requestId !== id) return null;
              if (current.state === "paid" && current.payment) paid(current.payment);
              else if (current.state === "expired") expired();
              return current.state;
            } catch (error) {
              if (error.status === 401) askForToken(true);
              return null;
            }
          }

          function paid(payment) {
            if (!sale || screen() === "paid") return;
            endSaleTimers();
            showAmount($("paid-amount"), payment.amount);
            const payer = payment.payer || "";
            $("paid-payer").textContent = payer ? payer.slice(0, 6) + "…" + payer.slice(-4) : "";
            $("paid-payer").title = payer;
            $("paid-time").textContent = new Date(payment.receivedAt * 1000).toLocaleTimeString();
            $("paid-memo").textContent = payment.memo || "";
            show("paid");
            chime();
            if (!sale.cashu) showReceipt(sale.requestId);
          }

          // The signed receipt as a code, for a payer who paid through the camera (a Bluetooth
          // payer has it already): shown under the sale it belongs to only.
          async function showReceipt(requestId) {
            try {
              const code = await (await api("GET", "/api/receipts/" + requestId + "/qr.svg")).blob();
              if (!sale || sale.requestId !== requestId || screen() !== "paid") return;
              const url = URL.createObjectURL(code);
              sale.receiptURL = url;
              const image = $("receipt-code");
              image.src = url;
              try { await image.decode(); } catch (_) {}
              // A new sale may have begun while the code was drawn.
              if (!sale || sale.requestId !== requestId || screen() !== "paid") return;
              $("receipt-box").hidden = false;
            } catch (error) {
              if (error.status === 401) askForToken(true);
            }
          }

          function expired() {
            endSaleTimers();
            setSaleState("expired");
          }

          function endSaleTimers() {
            clearInterval(ticker);
            clearTimeout(expiryCheck);
          }

          // Back to the keypad, empty or (charge again) with the last sale's amount and memo.
          function newSale(again) {
            endSaleTimers();
            const last = sale;
            if (last) URL.revokeObjectURL(last.codeURL);
            if (last && last.receiptURL) URL.revokeObjectURL(last.receiptURL);
            $("receipt-box").hidden = true;
            $("receipt-code").removeAttribute("src");
            sale = null;
            $("code").removeAttribute("src");
            delete $("sale-screen").dataset.requestId;
            delete $("sale-screen").dataset.cashuRequest;
            typed = again && last ? last.typed : "";
            $("memo").value = again && last ? last.memo : "";
            $("entry-error").textContent = "";
            show("keypad");
            showEntry();
            if (again && last) charge();
          }

          function onEvent(name, data) {
            let body;
            try { body = JSON.parse(data); } catch (_) { return; }
            if (name === "cashu") return cashuLanded(body);
            if (!sale || !body || typeof body.requestId !== "string") return;
            if (body.requestId.toLowerCase() !== sale.requestId.toLowerCase()) return;
            if (name === "payment") paid(body);
            else if (name === "paying" && screen() === "waiting") setSaleState("paying");
          }

          // A Cashu token landed (whichever way it came): it pays the Cashu sale on show when it
          // is of the sale's unit and at least its amount.
          function cashuLanded(payment) {
            if (!sale || !sale.cashu || !payment || screen() !== "waiting") return;
            if (payment.direction !== "in" || payment.unit !== sale.cashu) return;
            if (!/^\d+$/.test(String(payment.amount)) || BigInt(payment.amount) < BigInt(sale.amount)) return;
            let mint = String(payment.mint || "");
            try { mint = new URL(mint).host; } catch (_) {}
            paid({ amount: payment.amount, payer: "", receivedAt: payment.createdAt, memo: payment.memo || "" });
            $("paid-payer").textContent = "Cashu, " + mint;
          }

          // Server-Sent Events frames, from text chunks cut anywhere.
          class EventParser {
            constructor(dispatch) { this.dispatch = dispatch; this.pending = ""; this.reset(); }
            reset() { this.name = ""; this.data = []; }
            push(text) {
              // A lone CR at the end may be the first half of CRLF: keep it for the next chunk.
              const lines = (this.pending + text).split(/\r\n|\r(?!$)|\n/);
              this.pending = lines.pop();
              for (const line of lines) this.line(line);
            }
            line(line) {
              if (line === "") {
                if (this.data.length > 0) this.dispatch(this.name || "message", this.data.join("\n"));
                return this.reset();
              }
              if (line.startsWith(":")) return;
              const colon = line.indexOf(":");
              const field = colon < 0 ? line : line.slice(0, colon);
              let value = colon < 0 ? "" : line.slice(colon + 1);
              if (value.startsWith(" ")) value = value.slice(1);
              if (field === "event") this.name = value;
              else if (field === "data") this.data.push(value);
              else if (field === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
            }
          }

          function stopEvents() {
            streamGeneration += 1;
            if (streamAttempt) streamAttempt.abort();
          }

          // One stream for the page's life, opened again whenever it drops or falls silent.
          async function followEvents() {
            stopEvents();
            const generation = streamGeneration;
            while (generation === streamGeneration) {
              const attempt = new AbortController();
              streamAttempt = attempt;
              let watchdog = null;
              const stillAlive = () => {
                clearTimeout(watchdog);
                watchdog = setTimeout(() => attempt.abort(), STALL_MS);
              };
              try {
                const response = await fetch("/api/events", {
                  headers: { Authorization: "Bearer " + token, Accept: "text/event-stream" },
                  cache: "no-store", signal: attempt.signal,
                });
                if (response.status === 401) return askForToken(true);
                if (!response.ok || !response.body) throw new Error("HTTP " + response.status);
                setLink(true);
                checkSale();
                const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
                const parser = new EventParser(onEvent);
                stillAlive();
                for (;;) {
                  const { value, done } = await reader.read();
                  if (done) break;
                  stillAlive();
                  parser.push(value);
                }
              } catch (_) {
                // Dropped, refused or silent: try again below.
              }
              clearTimeout(watchdog);
              if (generation !== streamGeneration) return;
              setLink(false);
              await sleep(retryMs);
            }
          }

          function setLink(online) {
            document.body.dataset.online = String(online);
            for (const link of document.querySelectorAll(".link")) {
              link.dataset.online = String(online);
              link.querySelector(".link-text").textContent = online ? "Online" : "Reconnecting…";
            }
          }

          // A short tone and a buzz on phones: the stall keeper hears the sale land.
          function chime() {
            try {
              const audio = new AudioContext();
              const tone = audio.createOscillator();
              const gain = audio.createGain();
              tone.frequency.value = 880;
              gain.gain.setValueAtTime(0.2, audio.currentTime);
              gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
              tone.connect(gain).connect(audio.destination);
              tone.onended = () => audio.close();
              tone.start();
              tone.stop(audio.currentTime + 0.35);
            } catch (_) {}
            if (navigator.vibrate) navigator.vibrate(150);
          }

          function wire() {
            for (const key of document.querySelectorAll(".keypad button")) {
              key.addEventListener("click", () => press(key.dataset.key));
            }
            $("clear").addEventListener("click", () => press("clear"));
            $("pay-with").addEventListener("click", () => chargeIn($("pay-with").dataset.next || null));
            $("charge").addEventListener("click", charge);
            $("cancel").addEventListener("click", () => newSale(false));
            $("new-sale").addEventListener("click", () => newSale(false));
            $("charge-again").addEventListener("click", () => newSale(true));
            $("memo").addEventListener("keydown", (event) => { if (event.key === "Enter") $("memo").blur(); });
            $("token-form").addEventListener("submit", (event) => {
              event.preventDefault();
              const given = $("token-input").value.trim();
              if (!given) return;
              $("token-input").value = "";
              token = given;
              sessionStorage.setItem(TOKEN_KEY, token);
              connect();
            });
            // A keyboard works too (a desktop till).
            document.addEventListener("keydown", (event) => {
              if (event.target instanceof HTMLInputElement) return;
              if (screen() === "keypad") {
                if (/^[0-9]$/.test(event.key)) press(event.key);
                else if (event.key === ".") {
                  if (UNIT.decimals > 0) press(".");
                  else refuse("Whole units only.");
                }
                else if (event.key === "Backspace") press("back");
                else if (event.key === "Escape") press("clear");
                else if (event.key === "Enter") charge();
              } else if (screen() === "paid" && (event.key === "Enter" || event.key === "Escape")) {
                newSale(false);
              }
            });
          }

          // For the node lab (Tests/NodeLab/pos-tests.sh) and the browser console: the amount
          // pair, and text fed to an event parser as if a stream had sent it, in chunks.
          const consoleStream = new EventParser(onEvent);
          window.tenderPOS = Object.freeze({
            formatAmount, parseAmount, receive: (text) => consoleStream.push(text), chargeIn,
          });

          wire();
          // A new token in the fragment of the open page (a kiosk script changing the URL).
          window.addEventListener("hashchange", () => {
            const before = token;
            takeSettingsFromFragment();
            token = sessionStorage.getItem(TOKEN_KEY);
            if (token && token !== before) connect();
          });
          takeSettingsFromFragment();
          token = sessionStorage.getItem(TOKEN_KEY);
          showEntry();
          if (token) connect();
          else askForToken(false);
        })();
        """#
}
