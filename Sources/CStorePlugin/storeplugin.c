/* CStorePlugin is header-only: see include/storeplugin.h. */
