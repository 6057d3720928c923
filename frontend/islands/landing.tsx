// Landing page: the services list, with each service's features shown on request.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { mountIsland } from "../lib/mount";
import type { ServiceCategory } from "../lib/types";

interface LandingProps {
  services: ServiceCategory[];
}

function ServiceCard({ service }: { service: ServiceCategory }) {
  const [open, setOpen] = useState(false);
  const listId = `service-features-${service.id}`;
  return (
    <article className="card service-card" data-testid="service-card">
      <h3>{service.name}</h3>
      <p>{service.description}</p>
      {service.features.length > 0 && (
        <>
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((v) => !v)}
          >
            {open ? t`Hide what's included` : t`What's included`}
          </button>
          <ul id={listId} hidden={!open}>
            {service.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}

function Landing({ services }: LandingProps) {
  return (
    <div className="grid" data-island="landing">
      {services.map((s) => (
        <ServiceCard key={s.id} service={s} />
      ))}
    </div>
  );
}

mountIsland(Landing, "landing");
