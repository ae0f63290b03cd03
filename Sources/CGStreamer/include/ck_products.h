// CaptureKit's optional products, found at link time. A product an app does not depend on is
// not linked, and its entry point stays NULL (a weak reference): CaptureKit then says which
// product to add instead of failing to link or loading anything at run time.
#ifndef CK_PRODUCTS_H
#define CK_PRODUCTS_H

/// The CaptureKitDetectors product's detectors (a retained Swift object), or NULL when the
/// process was linked without that product. Each call returns a new reference.
void *ck_linked_detectors(void);

/// The CaptureKitWHEP product's HTTP servers for whep:// targets (a retained Swift object), or
/// NULL when the process was linked without that product. Each call returns a new reference.
void *ck_linked_whep_servers(void);

#endif
