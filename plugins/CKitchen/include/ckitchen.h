/* The CKitchen plugin has no API of its own: it exports the two storeplugin symbols.
 * This header exists because SwiftPM expects one for a C target. */
#ifndef CKITCHEN_H
#define CKITCHEN_H
#endif
