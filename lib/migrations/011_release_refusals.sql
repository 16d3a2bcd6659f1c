-- An enable refused because the release's counts fall too far below the enabled one's is
-- recorded beside the enables and rollbacks; note says which counts fell (or, on an enable
-- that was allowed to shrink them, which ones did).
ALTER TABLE release_history DROP CONSTRAINT release_history_action_check;
ALTER TABLE release_history ADD CONSTRAINT release_history_action_check CHECK (action IN ('enable', 'rollback', 'refused'));
ALTER TABLE release_history ADD COLUMN note text;
