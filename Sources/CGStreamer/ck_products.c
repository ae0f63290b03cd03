#include "ck_products.h"

#include <stddef.h>

// Defined (with @_cdecl) by the product's target when it is linked; weak, so a process without
// it links and sees NULL here.
extern void *ck_detectors_entry(void) __attribute__((weak));
extern void *ck_whep_entry(void) __attribute__((weak));

void *ck_linked_detectors(void) {
    return ck_detectors_entry ? ck_detectors_entry() : NULL;
}

void *ck_linked_whep_servers(void) {
    return ck_whep_entry ? ck_whep_entry() : NULL;
}
