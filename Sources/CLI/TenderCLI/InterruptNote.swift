import Dispatch
import Foundation
import Tender

/// ^C while a payment's codes play: the process ends (130), saying what became of the
/// payment. Once shown, the payee may have scanned it, so it stays pending and can be
/// exported again; never shown, it can be cancelled.
final class InterruptNote {
    private let source: any DispatchSourceSignal

    init(requestID: Bytes32) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            let id = requestID.hex
            FileHandle.standardError.write(
                Data(
                    """

                    tender: interrupted. If its codes were shown, the payee may have scanned them: the payment stays pending until its receipt (`tender receipt FILE`) or the chain settles it, and `tender payments export \(id) --out FILE` writes it again. One never shown is cancelled with `tender payments cancel \(id)`.

                    """.utf8))
            exit(130)
        }
        source.resume()
        self.source = source
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
