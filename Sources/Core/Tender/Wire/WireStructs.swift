import Codecs

// CBOR forms of the signed structures. Field numbers are fixed by Docs/PROTOCOL.md.

extension SignedNote {
    var cbor: CBOR {
        .fields([
            0: .bytes(note.serial.bytes), 1: .bytes(note.issuer.bytes),
            2: .bytes(note.asset.bytes), 3: note.amount.cbor, 4: .bytes(note.owner.bytes),
            5: .unsigned(note.expiry), 6: .bytes(signature.bytes),
        ])
    }

    init(wire reader: WireReader) throws(ProtocolError) {
        let fields = try reader.fields(required: [0, 1, 2, 3, 4, 5, 6])
        let note = Note(
            serial: try reader.field(fields, 0, "serial").bytes32(),
            issuer: try reader.field(fields, 1, "issuer").address(),
            asset: try reader.field(fields, 2, "asset").address(),
            amount: try reader.field(fields, 3, "amount").amount(),
            owner: try reader.field(fields, 4, "owner").address(),
            expiry: try reader.field(fields, 5, "expiry").unsigned())
        self.init(note: note, signature: try reader.field(fields, 6, "signature").signature())
    }
}

extension SignedTransfer {
    var cbor: CBOR {
        .fields([
            0: .array(transfer.inputs.map { .bytes($0.bytes) }),
            1: .array(transfer.outputs.map { .array([.bytes($0.owner.bytes), $0.amount.cbor]) }),
            2: .bytes(signature.bytes),
        ])
    }

    init(wire reader: WireReader, limits: VerificationLimits) throws(ProtocolError) {
        let fields = try reader.fields(required: [0, 1, 2])
        let inputs = try reader.field(fields, 0, "inputs").array(max: limits.maxInputsPerTransfer)
            .map { item throws(ProtocolError) in try item.bytes32() }
        let outputs = try reader.field(fields, 1, "outputs").array(
            max: limits.maxOutputsPerTransfer
        )
        .map { item throws(ProtocolError) -> Output in
            let pair = try item.array(max: 2)
            guard pair.count == 2 else { throw item.fail("expected [owner, amount]") }
            return Output(owner: try pair[0].address(), amount: try pair[1].amount())
        }
        self.init(
            transfer: Transfer(inputs: inputs, outputs: outputs),
            signature: try reader.field(fields, 2, "signature").signature())
    }
}

extension ProofBundle {
    var cbor: CBOR {
        .fields([0: .array(notes.map(\.cbor)), 1: .array(transfers.map(\.cbor))])
    }

    init(wire reader: WireReader, limits: VerificationLimits) throws(ProtocolError) {
        let fields = try reader.fields(required: [0, 1])
        self.init(
            notes: try reader.field(fields, 0, "notes").array(max: limits.maxNotes)
                .map { item throws(ProtocolError) in try SignedNote(wire: item) },
            transfers: try reader.field(fields, 1, "transfers").array(max: limits.maxTransfers)
                .map { item throws(ProtocolError) in try SignedTransfer(wire: item, limits: limits)
                })
    }
}

extension Payment {
    var cbor: CBOR {
        .fields([
            0: .bytes(requestID.bytes), 1: .bytes(payee.bytes), 2: amount.cbor,
            3: .bytes(asset.bytes), 4: .text(memo), 5: bundle.cbor,
            6: .array(coins.map { .bytes($0.bytes) }), 7: .bytes(signature.bytes),
        ])
    }

    init(wire reader: WireReader, limits: VerificationLimits) throws(ProtocolError) {
        let fields = try reader.fields(required: [0, 1, 2, 3, 4, 5, 6, 7])
        let terms = PaymentTerms(
            requestID: try reader.field(fields, 0, "requestId").bytes32(),
            payee: try reader.field(fields, 1, "payee").address(),
            amount: try reader.field(fields, 2, "amount").amount(),
            asset: try reader.field(fields, 3, "asset").address(),
            memo: try reader.field(fields, 4, "memo").text(maxBytes: PaymentRequest.maxMemoBytes),
            coins: try reader.field(fields, 6, "coins").array(max: limits.maxNotes)
                .map { item throws(ProtocolError) in try item.bytes32() })
        self.init(
            Signed(terms, signature: try reader.field(fields, 7, "signature").signature()),
            bundle: try ProofBundle(wire: reader.field(fields, 5, "bundle"), limits: limits))
    }
}

extension SignedReceipt {
    var cbor: CBOR {
        .fields([
            0: .bytes(receipt.requestID.bytes), 1: .bytes(receipt.paymentDigest.bytes),
            2: .unsigned(receipt.time), 3: .bytes(signature.bytes),
        ])
    }

    init(wire reader: WireReader) throws(ProtocolError) {
        let fields = try reader.fields(required: [0, 1, 2, 3])
        self.init(
            receipt: Receipt(
                requestID: try reader.field(fields, 0, "requestId").bytes32(),
                paymentDigest: try reader.field(fields, 1, "paymentDigest").bytes32(),
                time: try reader.field(fields, 2, "time").unsigned()),
            signature: try reader.field(fields, 3, "signature").signature())
    }
}

extension PaymentRequest {
    var cbor: CBOR {
        var pairs: [(UInt64, CBOR)] = [
            (0, .bytes(id.bytes)), (1, .bytes(payee.bytes)), (2, amount.cbor),
            (3, .bytes(asset.bytes)), (4, .text(memo)), (5, .unsigned(expiry)),
        ]
        if let sessionKey { pairs.append((6, .bytes(sessionKey))) }
        return .fields(pairs)
    }

    init(wire reader: WireReader, domain: Domain) throws(ProtocolError) {
        let fields = try reader.fields(required: [0, 1, 2, 3, 4, 5], optional: [6])
        try self.init(
            id: try reader.field(fields, 0, "id").bytes32(),
            payee: try reader.field(fields, 1, "payee").address(),
            amount: try reader.field(fields, 2, "amount").amount(),
            asset: try reader.field(fields, 3, "asset").address(),
            memo: try reader.field(fields, 4, "memo").text(maxBytes: PaymentRequest.maxMemoBytes),
            expiry: try reader.field(fields, 5, "expiry").unsigned(),
            sessionKey: fields[6] == nil
                ? nil : try reader.field(fields, 6, "sessionKey").bytes(count: 32),
            domain: domain)
    }
}

extension DoubleSpendEvidence {
    var cbor: CBOR {
        .fields([0: .bytes(coin.bytes), 1: first.cbor, 2: second.cbor])
    }

    init(wire reader: WireReader, domain: Domain, limits: VerificationLimits) throws(ProtocolError)
    {
        let fields = try reader.fields(required: [0, 1, 2])
        let first = try SignedTransfer(wire: reader.field(fields, 1, "first"), limits: limits)
        let second = try SignedTransfer(wire: reader.field(fields, 2, "second"), limits: limits)
        try self.init(
            coin: try reader.field(fields, 0, "coin").bytes32(), first, second, in: domain)
        // One fraud has one encoding: the pair in digest order, as it is written.
        guard self.first == first else {
            throw reader.fail("the transfers are not in digest order")
        }
    }
}
