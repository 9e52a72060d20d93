import CDBus

/// Turns `Message` values into libdbus messages and back, on the connection's owner thread.
///
/// libdbus aborts the process when handed an invalid name, string or container (its checks
/// are fatal by default), so everything is validated here first and refused with an error.
enum MessageCoding {
    /// A new libdbus message (the caller unrefs it), or an error naming what was invalid.
    static func encode(_ message: Message) throws(DBusError) -> OpaquePointer {
        try check(message)
        guard let raw = dbus_message_new(messageType(message.kind)) else {
            throw DBusError(.failed, "out of memory building a D-Bus message")
        }
        var ok = true
        if let path = message.path { ok = ok && dbus_message_set_path(raw, path.rawValue) != 0 }
        if let interface = message.interface {
            ok = ok && dbus_message_set_interface(raw, interface) != 0
        }
        if let member = message.member { ok = ok && dbus_message_set_member(raw, member) != 0 }
        if let name = message.errorName { ok = ok && dbus_message_set_error_name(raw, name) != 0 }
        if let destination = message.destination {
            ok = ok && dbus_message_set_destination(raw, destination) != 0
        }
        if message.replySerial != 0 {
            ok = ok && dbus_message_set_reply_serial(raw, message.replySerial) != 0
        }
        if message.noReplyExpected || message.kind != .methodCall {
            dbus_message_set_no_reply(raw, 1)
        }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        for value in message.body where ok { ok = append(value, to: &iterator) }
        guard ok else {
            dbus_message_unref(raw)
            throw DBusError(.failed, "out of memory building a D-Bus message")
        }
        return raw
    }

    /// The message's headers and body as values.
    static func decode(_ raw: OpaquePointer) -> Message {
        var message = Message(kind: kind(dbus_message_get_type(raw)))
        message.path = text(dbus_message_get_path(raw)).flatMap(ObjectPath.init)
        message.interface = text(dbus_message_get_interface(raw))
        message.member = text(dbus_message_get_member(raw))
        message.errorName = text(dbus_message_get_error_name(raw))
        message.destination = text(dbus_message_get_destination(raw))
        message.sender = text(dbus_message_get_sender(raw))
        message.serial = dbus_message_get_serial(raw)
        message.replySerial = dbus_message_get_reply_serial(raw)
        message.noReplyExpected = dbus_message_get_no_reply(raw) != 0
        var iterator = DBusMessageIter()
        if dbus_message_iter_init(raw, &iterator) != 0 {
            repeat {
                message.body.append(read(&iterator))
            } while dbus_message_iter_next(&iterator) != 0
        }
        return message
    }

    // MARK: - Validation

    /// Refuses what libdbus would abort on: invalid names, NUL in strings, ill-typed containers.
    static func check(_ message: Message) throws(DBusError) {
        try validateHeader(message)
        for value in message.body { try validate(value) }
    }

    static func isValidErrorName(_ name: String) -> Bool {
        dbus_validate_error_name(name, nil) != 0
    }

    private static func validateHeader(_ message: Message) throws(DBusError) {
        if let interface = message.interface, dbus_validate_interface(interface, nil) == 0 {
            throw DBusError(.invalidArgs, "invalid interface name \"\(interface)\"")
        }
        if let member = message.member, dbus_validate_member(member, nil) == 0 {
            throw DBusError(.invalidArgs, "invalid member name \"\(member)\"")
        }
        if let name = message.errorName, dbus_validate_error_name(name, nil) == 0 {
            throw DBusError(.invalidArgs, "invalid error name \"\(name)\"")
        }
        if let destination = message.destination, dbus_validate_bus_name(destination, nil) == 0 {
            throw DBusError(.invalidArgs, "invalid bus name \"\(destination)\"")
        }
        switch message.kind {
        case .methodCall where message.path == nil || message.member == nil:
            throw DBusError(.invalidArgs, "a method call needs a path and a member")
        case .signal
        where message.path == nil || message.interface == nil || message.member == nil:
            throw DBusError(.invalidArgs, "a signal needs a path, an interface and a member")
        case .error where message.errorName == nil:
            throw DBusError(.invalidArgs, "an error needs an error name")
        default: break
        }
    }

    private static func validate(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .string(let text):
            guard !text.utf8.contains(0) else {
                throw DBusError(.invalidArgs, "a D-Bus string cannot hold a NUL byte")
            }
        case .signature(let signature):
            guard dbus_signature_validate(signature, nil) != 0 else {
                throw DBusError(.invalidArgs, "invalid signature \"\(signature)\"")
            }
        case .array(let element, let elements):
            guard dbus_signature_validate_single(element, nil) != 0 else {
                throw DBusError(.invalidArgs, "invalid array element signature \"\(element)\"")
            }
            for item in elements {
                guard item.signature == element else {
                    throw DBusError(
                        .invalidArgs, "an a\(element) array holds a \(item.signature)")
                }
                try validate(item)
            }
        case .dictionary(let key, let valueType, let entries):
            guard dbus_signature_validate("a{\(key)\(valueType)}", nil) != 0 else {
                throw DBusError(.invalidArgs, "invalid dictionary type a{\(key)\(valueType)}")
            }
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == valueType else {
                    throw DBusError(
                        .invalidArgs,
                        "an a{\(key)\(valueType)} holds a {\(entry.key.signature)\(entry.value.signature)}"
                    )
                }
                try validate(entry.key)
                try validate(entry.value)
            }
        case .structure(let fields):
            guard !fields.isEmpty else {
                throw DBusError(.invalidArgs, "a D-Bus structure needs at least one field")
            }
            for field in fields { try validate(field) }
        case .variant(let inner): try validate(inner)
        default: break
        }
    }

    // MARK: - Writing

    private static func append(
        _ value: DBusValue, to iterator: UnsafeMutablePointer<DBusMessageIter>
    ) -> Bool {
        switch value {
        case .byte(let byte): return basic(byte, TENDER_DBUS_TYPE_BYTE, iterator)
        case .boolean(let flag):
            return basic(dbus_bool_t(flag ? 1 : 0), TENDER_DBUS_TYPE_BOOLEAN, iterator)
        case .int16(let number): return basic(number, TENDER_DBUS_TYPE_INT16, iterator)
        case .uint16(let number): return basic(number, TENDER_DBUS_TYPE_UINT16, iterator)
        case .int32(let number): return basic(number, TENDER_DBUS_TYPE_INT32, iterator)
        case .uint32(let number): return basic(number, TENDER_DBUS_TYPE_UINT32, iterator)
        case .int64(let number): return basic(number, TENDER_DBUS_TYPE_INT64, iterator)
        case .uint64(let number): return basic(number, TENDER_DBUS_TYPE_UINT64, iterator)
        case .double(let number): return basic(number, TENDER_DBUS_TYPE_DOUBLE, iterator)
        case .string(let text): return string(text, TENDER_DBUS_TYPE_STRING, iterator)
        case .objectPath(let path):
            return string(path.rawValue, TENDER_DBUS_TYPE_OBJECT_PATH, iterator)
        case .signature(let signature):
            return string(signature, TENDER_DBUS_TYPE_SIGNATURE, iterator)
        case .unixFD(let descriptor):
            return basic(descriptor.rawValue, TENDER_DBUS_TYPE_UNIX_FD, iterator)
        case .bytes(let bytes):
            return container(TENDER_DBUS_TYPE_ARRAY, "y", iterator) { inner in
                bytes.withUnsafeBufferPointer { buffer in
                    var base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)
                    return dbus_message_iter_append_fixed_array(
                        inner, TENDER_DBUS_TYPE_BYTE, &base, Int32(buffer.count)) != 0
                }
            }
        case .array(let element, let elements):
            return container(TENDER_DBUS_TYPE_ARRAY, element, iterator) { inner in
                elements.allSatisfy { append($0, to: inner) }
            }
        case .dictionary(let key, let valueType, let entries):
            return container(TENDER_DBUS_TYPE_ARRAY, "{\(key)\(valueType)}", iterator) { inner in
                entries.allSatisfy { entry in
                    container(TENDER_DBUS_TYPE_DICT_ENTRY, nil, inner) { pair in
                        append(entry.key, to: pair) && append(entry.value, to: pair)
                    }
                }
            }
        case .structure(let fields):
            return container(TENDER_DBUS_TYPE_STRUCT, nil, iterator) { inner in
                fields.allSatisfy { append($0, to: inner) }
            }
        case .variant(let inner):
            return container(TENDER_DBUS_TYPE_VARIANT, inner.signature, iterator) {
                append(inner, to: $0)
            }
        }
    }

    private static func basic<T: BitwiseCopyable>(
        _ value: T, _ type: Int32, _ iterator: UnsafeMutablePointer<DBusMessageIter>
    ) -> Bool {
        var copy = value
        return dbus_message_iter_append_basic(iterator, type, &copy) != 0
    }

    private static func string(
        _ text: String, _ type: Int32, _ iterator: UnsafeMutablePointer<DBusMessageIter>
    ) -> Bool {
        text.withCString { pointer in
            var copy: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(iterator, type, &copy) != 0
        }
    }

    private static func container(
        _ type: Int32, _ signature: String?, _ iterator: UnsafeMutablePointer<DBusMessageIter>,
        _ fill: (UnsafeMutablePointer<DBusMessageIter>) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened =
            signature.map { dbus_message_iter_open_container(iterator, type, $0, &inner) }
            ?? dbus_message_iter_open_container(iterator, type, nil, &inner)
        guard opened != 0 else { return false }
        guard fill(&inner) else {
            dbus_message_iter_abandon_container(iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(iterator, &inner) != 0
    }

    // MARK: - Reading

    /// The value at the iterator. libdbus validated the whole message on arrival, so every
    /// type here is well formed and nesting is bounded (64 levels).
    private static func read(_ iterator: UnsafeMutablePointer<DBusMessageIter>) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(iterator)
        switch type {
        case TENDER_DBUS_TYPE_BYTE: return .byte(basic(iterator, as: UInt8.self))
        case TENDER_DBUS_TYPE_BOOLEAN: return .boolean(basic(iterator, as: dbus_bool_t.self) != 0)
        case TENDER_DBUS_TYPE_INT16: return .int16(basic(iterator, as: Int16.self))
        case TENDER_DBUS_TYPE_UINT16: return .uint16(basic(iterator, as: UInt16.self))
        case TENDER_DBUS_TYPE_INT32: return .int32(basic(iterator, as: Int32.self))
        case TENDER_DBUS_TYPE_UINT32: return .uint32(basic(iterator, as: UInt32.self))
        case TENDER_DBUS_TYPE_INT64: return .int64(basic(iterator, as: Int64.self))
        case TENDER_DBUS_TYPE_UINT64: return .uint64(basic(iterator, as: UInt64.self))
        case TENDER_DBUS_TYPE_DOUBLE: return .double(basic(iterator, as: Double.self))
        case TENDER_DBUS_TYPE_STRING: return .string(readString(iterator))
        case TENDER_DBUS_TYPE_OBJECT_PATH:
            return .objectPath(ObjectPath(checked: readString(iterator)))
        case TENDER_DBUS_TYPE_SIGNATURE: return .signature(readString(iterator))
        // libdbus hands out a duplicate that the reader owns.
        case TENDER_DBUS_TYPE_UNIX_FD:
            return .unixFD(UnixFD(owning: basic(iterator, as: Int32.self)))
        case TENDER_DBUS_TYPE_ARRAY: return readArray(iterator)
        case TENDER_DBUS_TYPE_STRUCT: return .structure(readChildren(iterator))
        case TENDER_DBUS_TYPE_VARIANT:
            return .variant(readChildren(iterator).first ?? .structure([]))
        default: return .structure([])
        }
    }

    private static func readArray(_ iterator: UnsafeMutablePointer<DBusMessageIter>) -> DBusValue {
        let signature = ownedString(dbus_message_iter_get_signature(iterator))
        let element = String(signature.dropFirst())
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(iterator, &inner)
        if element == "y" {
            var base: UnsafeMutableRawPointer?
            var count: Int32 = 0
            withUnsafeMutablePointer(to: &base) { pointer in
                dbus_message_iter_get_fixed_array(&inner, pointer, &count)
            }
            guard let base, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: base, count: Int(count))))
        }
        if element.hasPrefix("{") {
            let keyType = String(element.dropFirst().prefix(1))
            let valueType = String(element.dropFirst(2).dropLast())
            var entries: [DictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&inner) == TENDER_DBUS_TYPE_DICT_ENTRY {
                let pair = readChildren(&inner)
                if pair.count == 2 { entries.append(DictionaryEntry(pair[0], pair[1])) }
                dbus_message_iter_next(&inner)
            }
            return .dictionary(key: keyType, value: valueType, entries)
        }
        var elements: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&inner) != TENDER_DBUS_TYPE_INVALID {
            elements.append(read(&inner))
            dbus_message_iter_next(&inner)
        }
        return .array(element: element, elements)
    }

    private static func readChildren(
        _ iterator: UnsafeMutablePointer<DBusMessageIter>
    )
        -> [DBusValue]
    {
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(iterator, &inner)
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&inner) != TENDER_DBUS_TYPE_INVALID {
            values.append(read(&inner))
            dbus_message_iter_next(&inner)
        }
        return values
    }

    private static func basic<T: BitwiseCopyable>(
        _ iterator: UnsafeMutablePointer<DBusMessageIter>, as type: T.Type
    ) -> T {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
        defer { storage.deallocate() }
        storage.initializeMemory(as: UInt64.self, repeating: 0, count: 1)
        dbus_message_iter_get_basic(iterator, storage)
        return storage.load(as: T.self)
    }

    private static func readString(_ iterator: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(iterator, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func ownedString(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { dbus_free(pointer) }
        return String(cString: pointer)
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func messageType(_ kind: Message.Kind) -> Int32 {
        switch kind {
        case .methodCall: DBUS_MESSAGE_TYPE_METHOD_CALL
        case .methodReturn: DBUS_MESSAGE_TYPE_METHOD_RETURN
        case .error: DBUS_MESSAGE_TYPE_ERROR
        case .signal: DBUS_MESSAGE_TYPE_SIGNAL
        }
    }

    private static func kind(_ type: Int32) -> Message.Kind {
        switch type {
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .methodCall
        }
    }
}
