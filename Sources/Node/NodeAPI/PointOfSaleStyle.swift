/// The point-of-sale page's style (PointOfSalePage.swift): made for a 7" 800×480 touch screen
/// read at arm's length (keys a finger wide, dark text on light, the amount and the code as
/// large as the screen allows), and laid out in one column on a phone held upright.
enum PointOfSaleStyle {
    static let css = #"""
        :root {
          --bg: #eef0f3; --panel: #ffffff; --ink: #0b0f14; --muted: #3f4854; --line: #c3c9d1;
          --go: #0a6b37; --go-pressed: #07522a; --wait: #1849a9; --warn: #a34a00; --bad: #b3261e;
          --gap: clamp(8px, 2vmin, 16px); --radius: 14px;
          color-scheme: light;
        }
        * { box-sizing: border-box; }
        html, body { margin: 0; height: 100%; }
        body {
          background: var(--bg); color: var(--ink); overflow: hidden;
          font: 500 clamp(16px, 4vmin, 22px)/1.25 system-ui, "DejaVu Sans", "Liberation Sans", sans-serif;
          -webkit-user-select: none; user-select: none; -webkit-tap-highlight-color: transparent;
          touch-action: manipulation;
        }
        button {
          font: inherit; color: inherit; border: 0; cursor: pointer; touch-action: manipulation;
          min-height: 56px; border-radius: var(--radius);
        }
        button:disabled { cursor: default; }
        h1 { margin: 0; font-size: 1.6em; }
        .muted { color: var(--muted); }
        .label { color: var(--muted); font-size: 0.85em; text-transform: uppercase; letter-spacing: 0.08em; font-weight: 700; }
        .screen { display: none; height: 100vh; height: 100dvh; padding: var(--gap); gap: var(--gap); }
        .center { flex-direction: column; align-items: center; justify-content: center; text-align: center; }
        body[data-screen="start"] #start-screen, body[data-screen="token"] #token-screen { display: flex; }
        body[data-screen="keypad"] #keypad-screen, body[data-screen="charging"] #keypad-screen,
        body[data-screen="waiting"] #sale-screen, body[data-screen="paying"] #sale-screen,
        body[data-screen="expired"] #sale-screen, body[data-screen="paid"] #paid-screen { display: grid; }
        .big { font-size: 2.4em; font-weight: 800; margin: 0; }

        /* The node link, a small pill beside a heading: is the event stream up? */
        .box-head { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
        .link {
          display: inline-flex; align-items: center; gap: 6px; white-space: nowrap;
          padding: 2px 10px; border-radius: 999px; font-size: 14px; font-weight: 700;
          background: #fff0cc; color: #6b3a00; border: 1px solid #d9a441;
        }
        .link[data-online="true"] { background: #e3f4e8; color: #0a5a2f; border-color: #8dc9a3; }
        .dot { width: 0.6em; height: 0.6em; border-radius: 50%; background: currentColor; flex: none; }

        /* The keypad screen: the amount and Charge beside the keys (one above the other upright). */
        #keypad-screen { grid-template-columns: 1fr 1.05fr; }
        .entry { display: flex; flex-direction: column; gap: var(--gap); min-width: 0; }
        .amount-box {
          flex: 1; display: flex; flex-direction: column; min-height: 0;
          background: var(--panel); border: 2px solid var(--line); border-radius: var(--radius);
          padding: 10px 12px 10px 16px;
        }
        .amount-row { flex: 1; display: flex; align-items: center; gap: 8px; min-height: 0; }
        /* An amount is as large as its box allows on one line: --chars is its length
           (PointOfSaleScript.swift), a digit about 0.7em wide, --room the width it may use. */
        .amount-row, .sale-info, .paid-head { container-type: inline-size; }
        .amount {
          font-weight: 800; line-height: 1.1; white-space: nowrap; font-variant-numeric: tabular-nums;
          font-size: min(var(--largest), calc(var(--room) / (var(--chars, 4) * 0.7)));
          --largest: min(88px, 18vmin); --room: 100cqi;
        }
        .amount-row .amount { flex: 1; text-align: right; min-width: 0; --room: calc(100cqi - 64px); }
        .clear {
          flex: none; width: 52px; min-height: 52px; background: #dde1e6; font-size: 30px; line-height: 1;
          border-radius: 50%;
        }
        .clear:disabled { visibility: hidden; }
        .memo {
          font: inherit; min-height: 56px; padding: 0 16px; border: 2px solid var(--line); border-radius: var(--radius);
          background: var(--panel); color: var(--ink); -webkit-user-select: text; user-select: text;
        }
        .memo:focus { outline: 3px solid var(--wait); outline-offset: 1px; }
        .error { margin: 0; color: var(--bad); font-weight: 700; font-size: 0.9em; }
        .error:empty { display: none; }
        .primary { background: var(--go); color: #fff; font-weight: 800; font-size: 1.35em; padding: 0 20px; }
        .primary:active:not(:disabled) { background: var(--go-pressed); }
        .primary:disabled { background: #9aa3ad; color: #f2f4f6; }
        .secondary { background: var(--panel); border: 2px solid var(--ink); font-weight: 800; font-size: 1.1em; padding: 0 20px; }
        .secondary:active { background: #dde1e6; }
        .charge { min-height: clamp(64px, 17vmin, 96px); }
        body[data-screen="charging"] .charge { opacity: 0.7; }
        .keypad { display: grid; grid-template-columns: repeat(3, 1fr); grid-template-rows: repeat(4, 1fr); gap: var(--gap); min-height: 0; }
        .keypad button {
          background: var(--panel); border: 2px solid var(--line); box-shadow: 0 2px 0 var(--line);
          font-size: clamp(28px, 9vmin, 48px); font-weight: 700; font-variant-numeric: tabular-nums;
        }
        .keypad button:active { background: #d7dce2; box-shadow: none; transform: translateY(2px); }

        /* The sale: the code as large as the screen's short side, the state beside it. */
        #sale-screen { grid-template-columns: auto 1fr; align-items: stretch; }
        .code-box { height: calc(100dvh - 2 * var(--gap)); aspect-ratio: 1; background: #fff; border-radius: var(--radius); padding: 4px; }
        .code-box { position: relative; }
        .code-box img { display: block; width: 100%; height: 100%; image-rendering: pixelated; }
        /* The node out of reach during a sale: said over the code, not only in the pill. */
        .offline-note {
          display: none; position: absolute; inset: auto 8px 8px 8px; margin: 0; padding: 10px 12px;
          border-radius: var(--radius); background: #6b3a00; color: #fff; font-weight: 800;
          font-size: clamp(16px, 4vmin, 22px); text-align: center;
        }
        body[data-online="false"] .offline-note { display: block; }
        body[data-online="false"] .code-box img { opacity: 0.35; }
        /* Read from a metre away: what to do, and how long is left. */
        #sale-label { font-size: clamp(22px, 6vmin, 34px); font-weight: 900; color: var(--ink, inherit); }
        .how { font-size: clamp(15px, 3.6vmin, 19px); color: var(--muted); }
        .sale-info { display: flex; flex-direction: column; gap: 10px; min-width: 0; }
        .sale-info .amount { --largest: min(72px, 15vmin); }
        .memo-text { font-size: 1.1em; color: var(--muted); overflow-wrap: anywhere; }
        .memo-text:empty { display: none; }
        .status {
          display: flex; align-items: center; gap: 10px; font-size: 1.15em; font-weight: 800;
          padding: 10px 14px; border-radius: var(--radius); background: #dfe8fa; color: var(--wait);
        }
        body[data-screen="waiting"] .status .dot { animation: pulse 1.4s ease-in-out infinite; }
        body[data-screen="paying"] .status { background: #fdebd3; color: var(--warn); }
        body[data-screen="paying"] .status .dot { animation: pulse 0.5s ease-in-out infinite; }
        body[data-screen="expired"] .status { background: #f9dedc; color: var(--bad); }
        body[data-screen="expired"] .code-box img { opacity: 0.12; }
        .countdown {
          color: var(--muted); font-variant-numeric: tabular-nums; min-height: 1.25em;
          font-size: clamp(18px, 4.5vmin, 26px); font-weight: 700;
        }
        .actions { display: flex; flex-direction: column; gap: var(--gap); margin-top: auto; }
        .actions button { min-height: 64px; }
        #charge-again { display: none; }
        body[data-screen="expired"] #charge-again { display: block; }
        @keyframes pulse { 50% { opacity: 0.25; } }

        /* Paid: the whole screen says so, readable from across the stall. */
        #paid-screen { grid-template-columns: 1fr 1fr; align-items: center; background: var(--go); color: #fff; }
        .paid-head { display: flex; flex-direction: column; align-items: center; text-align: center; gap: 8px; min-width: 0; }
        .tick { width: clamp(64px, 22vmin, 120px); height: auto; }
        .tick circle { fill: none; stroke: #fff; stroke-width: 3; }
        .tick path { fill: none; stroke: #fff; stroke-width: 5; stroke-linecap: round; stroke-linejoin: round; }
        #paid-title { font-size: clamp(40px, 12vmin, 64px); font-weight: 900; letter-spacing: 0.02em; }
        #paid-amount { --largest: min(80px, 16vmin); }
        .paid-details { display: flex; flex-direction: column; gap: calc(2 * var(--gap)); min-width: 0; }
        .receipt-box { margin: 0; display: flex; align-items: center; gap: var(--gap); font-weight: 700; }
        .receipt-box[hidden] { display: none; }
        .pay-with { min-height: 44px; font-size: 0.95em; }
        .pay-with[hidden] { display: none; }
        .receipt-box img { width: min(42vmin, 260px); aspect-ratio: 1; background: #fff; padding: 6px; border-radius: var(--radius); image-rendering: pixelated; }
        .receipt { display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; margin: 0; font-size: 1.15em; }
        .receipt dt { opacity: 0.85; font-weight: 600; }
        .receipt dd { margin: 0; font-weight: 800; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
        .receipt dd:empty, .receipt dt:has(+ dd:empty) { display: none; }
        .light { background: #fff; color: var(--go); min-height: clamp(64px, 17vmin, 96px); }
        .light:active:not(:disabled) { background: #d9efe1; }

        /* Asking for the token. */
        .token-form { display: flex; flex-direction: column; gap: var(--gap); width: min(560px, 100%); text-align: left; }
        .token-form input {
          font: inherit; min-height: 60px; padding: 0 16px; border: 2px solid var(--line); border-radius: var(--radius);
          -webkit-user-select: text; user-select: text;
        }
        .token-form .primary { min-height: 64px; }
        body[data-token-refused="true"] #token-message { color: var(--bad); font-weight: 700; }

        /* A phone held upright: one column. */
        @media (orientation: portrait) {
          #keypad-screen { grid-template-columns: 1fr; grid-template-rows: auto 1fr; }
          .amount-box { flex: none; min-height: 22vh; }
          #sale-screen { grid-template-columns: 1fr; grid-template-rows: auto 1fr; }
          .code-box { height: auto; width: 100%; }
          .sale-info { padding-top: 0; justify-content: flex-start; }
          #paid-screen { grid-template-columns: 1fr; align-content: center; }
        }
        """#
}
