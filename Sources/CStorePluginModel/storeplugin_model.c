/* storeplugin_model.h is a header only: a plugin includes it in the one file that
 * declares its model. This file is here because SwiftPM wants a source in a C target. */
#include "storeplugin_model.h"
