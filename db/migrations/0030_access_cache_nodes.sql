-- The API nodes that cache caller snapshots (docs/access.md "Caching across nodes"): each node
-- upserts its row on every heartbeat, in the same statement as the ping it sends itself through
-- LISTEN access_changed. A writer of access waits for the acknowledgement of every node whose
-- heartbeat is recent; a node that stopped heartbeating drops out of that set, and it has then
-- stopped serving from its cache itself. Rows of nodes silent for long are deleted by the others.
CREATE TABLE "access_nodes" (
	"node_id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "access_nodes_heartbeat_idx" ON "access_nodes" USING btree ("heartbeat_at");
