#ifndef TENDER_CBLUEZ_SHIM_H
#define TENDER_CBLUEZ_SHIM_H
/* The BlueZ headers use socket types without including <sys/socket.h> themselves. */
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>
#endif
