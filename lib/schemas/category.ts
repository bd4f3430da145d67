/** A category as every API answers it (public and admin). */
export type CategoryDto = {
  _id: string;
  title: string;
  description: string;
  count: number;
  createdAt: string;
};
