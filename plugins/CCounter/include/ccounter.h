/* The CCounter plugin has no public API of its own: it exports the two storeplugin
 * symbols. This header exists because SwiftPM expects one for a C target. */
#ifndef CCOUNTER_H
#define CCOUNTER_H
#endif
