-- A rule's name is its natural key: automation finds a rule by name and adopts it on a 409. Rules that shared a
-- name before keep their first holder's name; the others get their id appended.
UPDATE firewall_rule r
   SET name = left(r.name, 79 - length(r.id::text)) || '-' || r.id
 WHERE EXISTS (SELECT 1 FROM firewall_rule o WHERE o.name = r.name AND o.id < r.id);

ALTER TABLE firewall_rule ADD CONSTRAINT firewall_rule_name_unique UNIQUE (name);
