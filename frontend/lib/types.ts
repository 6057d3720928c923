// Shapes the server sends to the islands (camelCase, as in the spec).
export interface ServiceCategory {
  id: number;
  slug: string;
  name: string;
  description: string;
  icon: string;
  features: string[];
}
