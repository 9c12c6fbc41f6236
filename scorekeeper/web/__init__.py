"""What several blueprints share: cookies, links, the offline receipts and service worker, the
live hub, stalled clients, the languages, and a worker's warm-up."""
