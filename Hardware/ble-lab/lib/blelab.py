"""Helpers for BLE lab scenario nodes (Hardware/ble-lab/run.sh), python3 with python3-dbus and gi.

Lab coordination (the same files as Hardware/ble-lab/lib/lab.sh):
    log(*words)                   a time-stamped line on stdout (host time in both VMs)
    signal(name, text='')         raise a named event of this scenario, seen by both VMs
    wait(name, timeout=60)        wait for it; returns its text (None on timeout)
    fault(action, *args)          ask the lab for a fault ('restart-bluetoothd', 'A'), ('kill-node',
                                  'A'), ('air-cut', 8), ('air-stall', 5); returns (ok, answer)
BlueZ over D-Bus (the system bus, a GLib main loop pumped while waiting):
    pump(seconds), wait_until(predicate, timeout)
    Characteristic(uuid, flags, read=None, write=None): a local GATT characteristic; .notify(bytes)
    Peripheral(service_uuid, characteristics, name, ready_text): .start() registers the GATT
        application and an advertisement, and does it again whenever bluetoothd comes back
    Central(): .find(service_uuid), .connect(device), .characteristic(device, uuid),
        .start_notify(path) -> list filled with notified values, .disconnect(device)
"""
import os
import sys
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

BLUEZ = 'org.bluez'
PROPERTIES = 'org.freedesktop.DBus.Properties'
OBJECT_MANAGER = 'org.freedesktop.DBus.ObjectManager'
ADAPTER = '/org/bluez/' + os.environ.get('BLE_ADAPTER', 'hci0')
ROLE = os.environ.get('BLE_ROLE', '?')

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
BUS = dbus.SystemBus()


# ---- lab coordination ----------------------------------------------------------------------
def log(*words):
    now = time.time()
    stamp = time.strftime('%H:%M:%S', time.localtime(now)) + '.%03d' % (now % 1 * 1000)
    print('[%s %s]' % (ROLE, stamp), *words, flush=True)


def signal(name, text=''):
    bus_dir = os.environ['BLE_BUS']
    temporary = os.path.join(bus_dir, '.%s.%s.%d' % (name, ROLE, os.getpid()))
    with open(temporary, 'w') as f:
        f.write(str(text) + '\n')
    os.rename(temporary, os.path.join(bus_dir, name))


def wait(name, timeout=60):
    """Waits for an event (pumping the main loop meanwhile); its text, or None on timeout."""
    path = os.path.join(os.environ['BLE_BUS'], name)
    if not wait_until(lambda: os.path.exists(path), timeout, step=0.05):
        log('no event', name, 'after', timeout, 's')
        return None
    with open(path) as f:
        return f.read().rstrip('\n')


def fault(action, *args):
    """Asks the lab for a fault and waits for it: (True, answer) once done."""
    args = [str(a) for a in args]
    target = 'A'
    if action in ('restart-bluetoothd', 'kill-node'):
        target, args = args[0], args[1:]
    base = os.path.join(os.environ['BLE_REQUESTS'], target, '%s-%d' % (ROLE, time.time_ns()))
    with open(base + '.tmp', 'w') as f:
        f.write(' '.join([action] + args) + '\n')
    os.rename(base + '.tmp', base + '.req')
    if not wait_until(lambda: os.path.exists(base + '.done'), 180, step=0.05):
        return False, 'no answer from VM ' + target
    with open(base + '.done') as f:
        status, _, answer = f.read().strip().partition(' ')
    log('fault', action, *args, '->', answer)
    return status == '0', answer


# ---- main loop -------------------------------------------------------------------------------
def pump(seconds):
    wait_until(lambda: False, seconds)


def wait_until(predicate, timeout, step=0.01):
    """Runs the GLib main context until predicate() is true or timeout seconds passed."""
    context = GLib.MainContext.default()
    end = time.monotonic() + timeout
    while True:
        while context.pending():
            context.iteration(False)
        if predicate():
            return True
        if time.monotonic() >= end:
            return False
        context.iteration(False) or time.sleep(step)


def dbus_bytes(value):
    return dbus.Array(bytes(value), signature='y')


# ---- peripheral ---------------------------------------------------------------------------
class _Exported(dbus.service.Object):
    def __init__(self, path, interface):
        self.path, self.interface = path, interface
        super().__init__(BUS, path)

    def properties(self):
        return {}

    @dbus.service.method(PROPERTIES, in_signature='s', out_signature='a{sv}')
    def GetAll(self, interface):
        return self.properties()

    @dbus.service.signal(PROPERTIES, signature='sa{sv}as')
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Characteristic(_Exported):
    """A local characteristic. read() -> bytes; write(value, options). Flags as BlueZ names
    them ('read', 'write', 'write-without-response', 'notify')."""

    def __init__(self, uuid, flags, read=None, write=None):
        self.uuid, self.flags, self.read, self.write = uuid, list(flags), read, write
        self.notifying = False
        self.service_path = None

    def export(self, path, service_path):
        self.service_path = service_path
        super().__init__(path, 'org.bluez.GattCharacteristic1')

    def properties(self):
        return {'UUID': self.uuid, 'Service': dbus.ObjectPath(self.service_path), 'Flags': self.flags}

    def notify(self, value):
        if not self.notifying:
            return False
        self.PropertiesChanged(self.interface, {'Value': dbus_bytes(value)}, [])
        return True

    @dbus.service.method('org.bluez.GattCharacteristic1', in_signature='a{sv}', out_signature='ay')
    def ReadValue(self, options):
        return dbus_bytes(self.read() if self.read else b'')

    @dbus.service.method('org.bluez.GattCharacteristic1', in_signature='aya{sv}')
    def WriteValue(self, value, options):
        if self.write:
            self.write(bytes(value), options)

    @dbus.service.method('org.bluez.GattCharacteristic1')
    def StartNotify(self):
        self.notifying = True
        log('StartNotify on', self.uuid)

    @dbus.service.method('org.bluez.GattCharacteristic1')
    def StopNotify(self):
        self.notifying = False


class _Service(_Exported):
    def __init__(self, path, uuid):
        self.uuid = uuid
        super().__init__(path, 'org.bluez.GattService1')

    def properties(self):
        return {'UUID': self.uuid, 'Primary': True}


class _Application(dbus.service.Object):
    def __init__(self, path, objects):
        self.path, self.objects = path, objects
        super().__init__(BUS, path)

    @dbus.service.method(OBJECT_MANAGER, out_signature='a{oa{sa{sv}}}')
    def GetManagedObjects(self):
        return {dbus.ObjectPath(o.path): {o.interface: o.properties()} for o in self.objects}


class _Advertisement(_Exported):
    def __init__(self, path, service_uuid, name):
        self.service_uuid, self.name = service_uuid, name
        super().__init__(path, 'org.bluez.LEAdvertisement1')

    def properties(self):
        return {'Type': 'peripheral', 'ServiceUUIDs': [self.service_uuid], 'LocalName': self.name,
                'Discoverable': True}

    @dbus.service.method('org.bluez.LEAdvertisement1')
    def Release(self):
        log('advertisement released')


class Peripheral:
    """One primary service with its characteristics, advertised by UUID. Registers whenever
    bluetoothd is (or comes back) on the bus: a restarted bluetoothd forgets every application
    and advertisement, so a node that must survive it registers again. Prints ready_text each
    time both registrations succeeded; on_connection(device_path, connected) if given."""

    def __init__(self, service_uuid, characteristics, name='ble-lab', ready_text='PERIPHERAL_READY',
                 on_connection=None):
        self.ready_text, self.on_connection = ready_text, on_connection
        self.registrations = 0
        root = '/blelab/app'
        service = _Service(root + '/service0', service_uuid)
        for i, c in enumerate(characteristics):
            c.export('%s/service0/char%d' % (root, i), service.path)
        self.application = _Application(root, [service] + list(characteristics))
        self.advertisement = _Advertisement('/blelab/advertisement0', service_uuid, name)
        self._owner = None
        self._pending = 0

    def start(self):
        BUS.add_signal_receiver(self._properties_changed, 'PropertiesChanged', PROPERTIES, BLUEZ,
                                path_keyword='path')
        BUS.watch_name_owner(BLUEZ, self._owner_changed)

    def _owner_changed(self, owner):
        if not owner:
            if self._owner:
                log('bluetoothd left the bus: waiting for it to come back')
            self._owner = None
            return
        self._owner = owner
        log('bluetoothd on the bus (%s): registering' % owner)
        GLib.timeout_add(100, self._register_when_adapter, owner, time.monotonic())

    def _register_when_adapter(self, owner, since):
        if owner != self._owner:
            return False
        try:
            adapter = BUS.get_object(BLUEZ, ADAPTER)
            props = dbus.Interface(adapter, PROPERTIES)
            if not props.Get('org.bluez.Adapter1', 'Powered'):
                if time.monotonic() - since < 3:
                    return True  # bluetoothd's AutoEnable powers it on; give it a moment
                props.Set('org.bluez.Adapter1', 'Powered', True)
        except dbus.exceptions.DBusException:
            return True  # the adapter is not there yet: try again
        self._pending = 2
        dbus.Interface(adapter, 'org.bluez.GattManager1').RegisterApplication(
            self.application.path, {}, reply_handler=self._registered('GATT application'),
            error_handler=self._failed('GATT application'))
        dbus.Interface(adapter, 'org.bluez.LEAdvertisingManager1').RegisterAdvertisement(
            self.advertisement.path, {}, reply_handler=self._registered('advertisement'),
            error_handler=self._failed('advertisement'))
        return False

    def _registered(self, what):
        def done():
            log(what, 'registered')
            self._pending -= 1
            if self._pending == 0:
                self.registrations += 1
                print(self.ready_text, flush=True)
        return done

    def _failed(self, what):
        def failed(error):
            log(what, 'registration FAILED:', error.get_dbus_name(), error.get_dbus_message())
            sys.exit(2)
        return failed

    def _properties_changed(self, interface, changed, invalidated, path=None):
        if interface == 'org.bluez.Device1' and 'Connected' in changed:
            log('central', path.rsplit('/', 1)[-1], 'connected' if changed['Connected'] else 'disconnected')
            if self.on_connection:
                self.on_connection(path, bool(changed['Connected']))


# ---- central ------------------------------------------------------------------------------------
class Central:
    def __init__(self):
        self.adapter_object = BUS.get_object(BLUEZ, ADAPTER)
        self.adapter = dbus.Interface(self.adapter_object, 'org.bluez.Adapter1')
        self.objects = dbus.Interface(BUS.get_object(BLUEZ, '/'), OBJECT_MANAGER)
        props = dbus.Interface(self.adapter_object, PROPERTIES)
        if not props.Get('org.bluez.Adapter1', 'Powered'):
            props.Set('org.bluez.Adapter1', 'Powered', True)
        self._values = {}
        BUS.add_signal_receiver(self._properties_changed, 'PropertiesChanged', PROPERTIES, BLUEZ,
                                path_keyword='path')

    def _properties_changed(self, interface, changed, invalidated, path=None):
        if interface == 'org.bluez.GattCharacteristic1' and 'Value' in changed and path in self._values:
            self._values[path].append(bytes(changed['Value']))

    def device_property(self, device, name, default=None):
        try:
            return dbus.Interface(BUS.get_object(BLUEZ, device), PROPERTIES).Get('org.bluez.Device1', name)
        except dbus.exceptions.DBusException:
            return default

    def _advertiser(self, service_uuid):
        for path, interfaces in self.objects.GetManagedObjects().items():
            device = interfaces.get('org.bluez.Device1')
            if device and path.startswith(ADAPTER + '/') and service_uuid in [str(u) for u in device.get('UUIDs', [])]:
                return str(path)
        return None

    def find(self, service_uuid, timeout=40, restart_every=4.0):
        """Discovers a device advertising service_uuid; its object path, or None. btvirt sends
        an advertising report only when scanning (or advertising) is switched on, and the
        first may come while discovery is still starting: discovery is restarted every
        restart_every seconds until the device is seen."""
        self.adapter.SetDiscoveryFilter({'Transport': 'le', 'UUIDs': [service_uuid]})
        started, found, scans = time.monotonic(), None, 0
        while time.monotonic() - started < timeout:
            found = self._advertiser(service_uuid)
            if found:
                break
            try:
                self.adapter.StartDiscovery()
                scans += 1
            except dbus.exceptions.DBusException as e:
                log('StartDiscovery:', e.get_dbus_name())
            wait_until(lambda: self._advertiser(service_uuid), restart_every, step=0.1)
            found = self._advertiser(service_uuid)
            try:
                self.adapter.StopDiscovery()
            except dbus.exceptions.DBusException:
                pass
            if found:
                break
        if found:
            log('found', self.device_property(found, 'Address'), 'in %.1f s (%d scan%s)' % (
                time.monotonic() - started, scans, '' if scans == 1 else 's'))
        else:
            log('no device with', service_uuid, 'after', timeout, 's')
        return found

    def connect(self, device, timeout=30, attempts=3):
        """Device1.Connect, then waits for ServicesResolved; True when both happened."""
        for attempt in range(1, attempts + 1):
            started = time.monotonic()
            try:
                dbus.Interface(BUS.get_object(BLUEZ, device), 'org.bluez.Device1').Connect(timeout=timeout)
            except dbus.exceptions.DBusException as e:
                log('Connect attempt %d failed: %s %s' % (attempt, e.get_dbus_name(), e.get_dbus_message()))
                pump(1)
                continue
            if wait_until(lambda: self.device_property(device, 'ServicesResolved', False), timeout, step=0.05):
                log('connected and services resolved in %.2f s' % (time.monotonic() - started))
                return True
            log('connected, but services not resolved after', timeout, 's')
        return False

    def characteristic(self, device, uuid, timeout=15):
        """The object path of a characteristic of the device: retried, as it may appear after
        ServicesResolved."""
        found = []

        def look():
            for path, interfaces in self.objects.GetManagedObjects().items():
                c = interfaces.get('org.bluez.GattCharacteristic1')
                if c and path.startswith(device + '/') and str(c['UUID']) == uuid:
                    found.append(str(path))
                    return True
            return False
        wait_until(look, timeout, step=0.2)
        return found[0] if found else None

    def gatt(self, path):
        return dbus.Interface(BUS.get_object(BLUEZ, path), 'org.bluez.GattCharacteristic1')

    def start_notify(self, path):
        """StartNotify; returns the list the notified values are appended to."""
        self._values[path] = []
        self.gatt(path).StartNotify()
        return self._values[path]

    def connected(self, device):
        return bool(self.device_property(device, 'Connected', False))

    def disconnect(self, device):
        try:
            dbus.Interface(BUS.get_object(BLUEZ, device), 'org.bluez.Device1').Disconnect()
        except dbus.exceptions.DBusException as e:
            log('Disconnect:', e.get_dbus_name())
