// The official JSON Schema of every revision lint checks against, imported from the repository's
// spec/ folder (see spec/README.md for provenance) so the bundle carries them: an installed CLI
// reads no file of the repository. This module is loaded only with the lint engine.

import schema20241105 from '../../../../../spec/2024-11-05/schema.json' with { type: 'json' };
import schema20250326 from '../../../../../spec/2025-03-26/schema.json' with { type: 'json' };
import schema20250618 from '../../../../../spec/2025-06-18/schema.json' with { type: 'json' };
import schema20251125 from '../../../../../spec/2025-11-25/schema.json' with { type: 'json' };
import schema20260728 from '../../../../../spec/2026-07-28/schema.json' with { type: 'json' };

/** The published schema.json of each revision, unmodified (callers copy before patching). */
export const OFFICIAL_SCHEMAS: Readonly<Record<string, object>> = {
  '2024-11-05': schema20241105,
  '2025-03-26': schema20250326,
  '2025-06-18': schema20250618,
  '2025-11-25': schema20251125,
  '2026-07-28': schema20260728,
};
