/* The CGreeter plugin has no public API of its own: it exports the two storeplugin
 * symbols. This header exists because SwiftPM expects one for a C target. */
#ifndef CGREETER_H
#define CGREETER_H
#endif
