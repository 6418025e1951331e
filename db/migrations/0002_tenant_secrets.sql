CREATE TABLE "tenant_secrets" (
	"tenant_id" text NOT NULL,
	"name" text NOT NULL,
	"sealed" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_secrets_tenant_id_name_pk" PRIMARY KEY("tenant_id","name")
);
