#!/usr/bin/python3
"""A stand-in for xdg-desktop-portal's Camera portal on a private session bus, for the tests:
org.freedesktop.portal.Desktop at /org/freedesktop/portal/desktop with the Camera interface's
AccessCamera (answering each Request with PORTAL_ANSWER: 0 granted, 1 cancelled, 2 ended),
OpenPipeWireRemote (a connection to $PIPEWIRE_SOCKET when set, else one end of a socket pair whose
other end is closed)
and IsCameraPresent. Prints "ready" once it owns the name. Run it under the bus it serves:
DBUS_SESSION_BUS_ADDRESS=... PORTAL_ANSWER=0 scripts/fake-camera-portal.py"""
import os
import socket

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
CAMERA = "org.freedesktop.portal.Camera"
ANSWER = int(os.environ.get("PORTAL_ANSWER", "0"))
kept = []  # requests and sockets live as long as the portal


class Request(dbus.service.Object):
    @dbus.service.signal("org.freedesktop.portal.Request", signature="ua{sv}")
    def Response(self, response, results):
        pass


class Portal(dbus.service.Object):
    @dbus.service.method(CAMERA, in_signature="a{sv}", out_signature="o", sender_keyword="sender")
    def AccessCamera(self, options, sender=None):
        token = str(options.get("handle_token", "t%d" % len(kept)))
        path = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender[1:].replace(".", "_"), token)
        request = Request(self.connection, path)
        kept.append(request)
        print("AccessCamera from %s: answering %d" % (sender, ANSWER), flush=True)

        def respond():
            request.Response(dbus.UInt32(ANSWER), dbus.Dictionary({}, signature="sv"))
            return False
        GLib.timeout_add(100, respond)  # as a dialog would: after the call has returned
        return dbus.ObjectPath(path)

    @dbus.service.method(CAMERA, in_signature="a{sv}", out_signature="h")
    def OpenPipeWireRemote(self, options):
        target = os.environ.get("PIPEWIRE_SOCKET")
        if target:
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect(target)
        else:
            # No daemon behind it: the other end is closed, so a client sees the connection end
            # at once instead of waiting for an answer.
            connection, other = socket.socketpair()
            other.close()
        kept.append(connection)
        print("OpenPipeWireRemote: fd %d" % connection.fileno(), flush=True)
        return dbus.types.UnixFd(connection.fileno())

    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface == CAMERA and name == "IsCameraPresent":
            return dbus.Boolean(True)
        if interface == CAMERA and name == "version":
            return dbus.UInt32(1)
        raise dbus.exceptions.DBusException("org.freedesktop.DBus.Error.UnknownProperty", name)


bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)
Portal(bus, "/org/freedesktop/portal/desktop")
print("ready", flush=True)
GLib.MainLoop().run()
