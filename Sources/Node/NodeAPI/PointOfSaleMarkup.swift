/// The point-of-sale page's screens (PointOfSalePage.swift). `body[data-screen]` names the one
/// shown: start, token, keypad, charging, waiting, paying, paid or expired. No inline styles
/// or handlers: the Content-Security-Policy allows only the nonce'd style and script.
enum PointOfSaleMarkup {
    static let body = #"""
        <section id="start-screen" class="screen center">
          <p class="big">Tender</p>
          <p id="start-message" class="muted">Connecting to the node…</p>
        </section>

        <section id="token-screen" class="screen center">
          <form id="token-form" class="token-form" autocomplete="off">
            <h1>Connect to the node</h1>
            <p id="token-message" class="muted">Enter the API token: the api-token file in the node's data directory.</p>
            <input id="token-input" type="password" spellcheck="false" placeholder="API token" aria-label="API token">
            <button type="submit" class="primary">Connect</button>
          </form>
        </section>

        <section id="keypad-screen" class="screen">
          <div class="entry">
            <div class="amount-box">
              <div class="box-head"><span class="label">Amount</span>\#(link)</div>
              <div class="amount-row">
                <output id="amount" class="amount" aria-live="polite">0</output>
                <button id="clear" class="clear" type="button" aria-label="Clear the amount">×</button>
              </div>
            </div>
            <input id="memo" class="memo" type="text" maxlength="140" placeholder="Memo (optional)" aria-label="Memo" autocomplete="off">
            <button id="pay-with" class="secondary pay-with" type="button" hidden></button>
            <p id="entry-error" class="error" role="alert"></p>
            <button id="charge" class="primary charge" type="button" disabled>Charge</button>
          </div>
          <div class="keypad" role="group" aria-label="Amount keypad">
            <button type="button" data-key="1">1</button>
            <button type="button" data-key="2">2</button>
            <button type="button" data-key="3">3</button>
            <button type="button" data-key="4">4</button>
            <button type="button" data-key="5">5</button>
            <button type="button" data-key="6">6</button>
            <button type="button" data-key="7">7</button>
            <button type="button" data-key="8">8</button>
            <button type="button" data-key="9">9</button>
            <button type="button" data-key="00" id="key-extra">00</button>
            <button type="button" data-key="0">0</button>
            <button type="button" data-key="back" aria-label="Delete the last digit">⌫</button>
          </div>
        </section>

        <section id="sale-screen" class="screen">
          <div class="code-box">
            <img id="code" alt="Payment request code: scan it to pay">
            <p class="offline-note" role="alert">Not connected to the node: a payment made now may not show here. Wait for “Online”.</p>
          </div>
          <div class="sale-info">
            <div class="box-head"><span id="sale-label" class="label">Scan to pay</span>\#(link)</div>
            <div id="sale-amount" class="amount"></div>
            <div id="sale-how" class="how">Pay with a Tender wallet: scan this code, or pay over Bluetooth nearby.</div>
            <div id="sale-memo" class="memo-text"></div>
            <div class="status" role="status"><span class="dot"></span><span id="status-text">Waiting for payment</span></div>
            <div id="countdown" class="countdown"></div>
            <div class="actions">
              <button id="charge-again" class="primary" type="button">Charge again</button>
              <button id="cancel" class="secondary" type="button">Cancel</button>
            </div>
          </div>
        </section>

        <section id="paid-screen" class="screen">
          <div class="paid-head">
            <svg class="tick" viewBox="0 0 52 52" aria-hidden="true"><circle cx="26" cy="26" r="24"/><path d="M14 27l8 8 16-17"/></svg>
            <h1 id="paid-title">Paid</h1>
            <div id="paid-amount" class="amount"></div>
          </div>
          <div class="paid-details">
            <dl class="receipt">
              <dt>From</dt><dd id="paid-payer"></dd>
              <dt>Time</dt><dd id="paid-time"></dd>
              <dt>Memo</dt><dd id="paid-memo"></dd>
            </dl>
            <figure id="receipt-box" class="receipt-box" hidden>
              <img id="receipt-code" alt="Receipt code: the payer scans it">
              <figcaption>Paid with a code? Scan your receipt</figcaption>
            </figure>
            <button id="new-sale" class="primary light" type="button">New sale</button>
          </div>
        </section>
        """#

    /// Whether the node's event stream is up, in the corner of the keypad and of the sale.
    static let link = #"""
        <span class="link" data-online="false"><span class="dot"></span><span class="link-text">Connecting…</span></span>
        """#
}
