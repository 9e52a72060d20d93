"""A stand-in for bluetoothd on a private bus, to check Hardware/dbus/tender.conf with the
node's own Bluetooth code (Tests/Hardware/hardware-tests.sh). Owns org.bluez, offers one
powered adapter, hci0, with the calls `tender peers` and `tender receive --ble` make, and calls
back into the client's exported objects as bluetoothd does: RegisterApplication reads the
application's objects (ObjectManager.GetManagedObjects), RegisterAdvertisement its properties
(Properties.GetAll). A registration answers only once its callback succeeded, so a policy that
refuses the callback fails the client's call, as with the real bluetoothd.

After each registration it also tries a call the policy must refuse (an interface the node
never exports) and logs whether the bus refused it.

    python3 fake_bluez.py BUS_ADDRESS LOG

LOG gets one line per event: "ready", "call INTERFACE.MEMBER from :1.N (uid U)",
"callback INTERFACE.MEMBER ok|error NAME", "stray call refused|allowed". Runs until SIGTERM.
"""

import signal
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

ADAPTER = "org.bluez.Adapter1"
GATT_MANAGER = "org.bluez.GattManager1"
ADVERTISING = "org.bluez.LEAdvertisingManager1"
PROPERTIES = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
PATH = "/org/bluez/hci0"

address, log_path = sys.argv[1], sys.argv[2]
DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(address)
log_file = open(log_path, "a", buffering=1)


def log(text):
    log_file.write(text + "\n")


def caller(sender):
    uid = bus.get_unix_user(sender)
    return f"{sender} (uid {uid})"


adapter_properties = {
    "Address": dbus.String("00:11:22:33:44:55"),
    "AddressType": dbus.String("public"),
    "Name": dbus.String("fake"),
    "Alias": dbus.String("fake"),
    "Powered": dbus.Boolean(True),
    "Discoverable": dbus.Boolean(False),
    "Discovering": dbus.Boolean(False),
    "UUIDs": dbus.Array([], signature="s"),
}


class Root(dbus.service.Object):
    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}", sender_keyword="sender")
    def GetManagedObjects(self, sender=None):
        log(f"call {OBJECT_MANAGER}.GetManagedObjects from {caller(sender)}")
        return {
            dbus.ObjectPath(PATH): {
                ADAPTER: dbus.Dictionary(adapter_properties, signature="sv"),
                GATT_MANAGER: dbus.Dictionary({}, signature="sv"),
                ADVERTISING: dbus.Dictionary({}, signature="sv"),
            }
        }


class Adapter(dbus.service.Object):
    @dbus.service.method(ADAPTER, in_signature="a{sv}", sender_keyword="sender")
    def SetDiscoveryFilter(self, _filter, sender=None):
        log(f"call {ADAPTER}.SetDiscoveryFilter from {caller(sender)}")

    @dbus.service.method(ADAPTER, sender_keyword="sender")
    def StartDiscovery(self, sender=None):
        log(f"call {ADAPTER}.StartDiscovery from {caller(sender)}")

    @dbus.service.method(ADAPTER, sender_keyword="sender")
    def StopDiscovery(self, sender=None):
        log(f"call {ADAPTER}.StopDiscovery from {caller(sender)}")

    @dbus.service.method(ADAPTER, in_signature="o", sender_keyword="sender")
    def RemoveDevice(self, _device, sender=None):
        log(f"call {ADAPTER}.RemoveDevice from {caller(sender)}")

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v", sender_keyword="sender")
    def Get(self, interface, name, sender=None):
        log(f"call {PROPERTIES}.Get {interface}.{name} from {caller(sender)}")
        if interface != ADAPTER or name not in adapter_properties:
            raise dbus.exceptions.DBusException(
                "no such property", name="org.freedesktop.DBus.Error.InvalidArgs")
        return adapter_properties[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}", sender_keyword="sender")
    def GetAll(self, interface, sender=None):
        log(f"call {PROPERTIES}.GetAll {interface} from {caller(sender)}")
        return adapter_properties if interface == ADAPTER else {}

    @dbus.service.method(PROPERTIES, in_signature="ssv", sender_keyword="sender")
    def Set(self, interface, name, value, sender=None):
        log(f"call {PROPERTIES}.Set {interface}.{name} from {caller(sender)}")
        adapter_properties[name] = value

    def call_back(self, sender, path, interface, member, signature, args, ok, error):
        """Calls the client's object like bluetoothd, then answers the registration."""

        def done(*_):
            log(f"callback {interface}.{member} ok")
            stray(sender, path)
            ok()

        def failed(exception):
            log(f"callback {interface}.{member} error {exception.get_dbus_name()}")
            error(dbus.exceptions.DBusException(
                f"calling back {member}: {exception.get_dbus_message()}",
                name="org.bluez.Error.Failed"))

        bus.call_async(sender, path, interface, member, signature, args, done, failed)

    @dbus.service.method(GATT_MANAGER, in_signature="oa{sv}", sender_keyword="sender",
                         async_callbacks=("ok", "error"))
    def RegisterApplication(self, application, _options, sender=None, ok=None, error=None):
        log(f"call {GATT_MANAGER}.RegisterApplication {application} from {caller(sender)}")
        self.call_back(sender, application, OBJECT_MANAGER, "GetManagedObjects", "", [], ok, error)

    @dbus.service.method(GATT_MANAGER, in_signature="o", sender_keyword="sender")
    def UnregisterApplication(self, _application, sender=None):
        log(f"call {GATT_MANAGER}.UnregisterApplication from {caller(sender)}")

    @dbus.service.method(ADVERTISING, in_signature="oa{sv}", sender_keyword="sender",
                         async_callbacks=("ok", "error"))
    def RegisterAdvertisement(self, advertisement, _options, sender=None, ok=None, error=None):
        log(f"call {ADVERTISING}.RegisterAdvertisement {advertisement} from {caller(sender)}")
        self.call_back(sender, advertisement, PROPERTIES, "GetAll", "s",
                       ["org.bluez.LEAdvertisement1"], ok, error)

    @dbus.service.method(ADVERTISING, in_signature="o", sender_keyword="sender")
    def UnregisterAdvertisement(self, _advertisement, sender=None):
        log(f"call {ADVERTISING}.UnregisterAdvertisement from {caller(sender)}")


def stray(sender, path):
    """A call on an interface bluetoothd never uses: the policy must make the bus refuse it."""

    def answered(*_):
        log("stray call allowed")

    def failed(exception):
        refused = exception.get_dbus_name() == "org.freedesktop.DBus.Error.AccessDenied"
        log("stray call refused" if refused else f"stray call allowed ({exception.get_dbus_name()})")

    bus.call_async(sender, path, "org.example.NotBlueZ", "Poke", "", [], answered, failed)


name = dbus.service.BusName("org.bluez", bus, do_not_queue=True)
Root(bus, "/")
Adapter(bus, PATH)
loop = GLib.MainLoop()
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
log("ready")
loop.run()
