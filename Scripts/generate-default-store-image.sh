#!/usr/bin/env bash
# Rewrites Sources/CDefaultStoreImage/default_store_image.c, the prebuilt
# SQLite image of the shell's embedded default store, from the code that
# builds it (DefaultStore.writtenStore()), then checks the rebuilt image.
# Run it after changing the default store's model, rows or the schema
# Quarry creates: DefaultStoreTests fails until you do.
set -euo pipefail
cd "$(dirname "$0")/.."
QUARRY_RECORD_DEFAULT_STORE_IMAGE=1 swift test --filter 'DefaultStoreTests/recordImage'
swift test --filter 'DefaultStoreTests'
