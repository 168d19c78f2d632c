/** Routes of the admin organization screens. */
export const adminOrganizationsPath = '/admin/organizations';
export const newOrganizationPath = `${adminOrganizationsPath}/new`;
export const adminOrganizationPath = (organizationId: string) => `${adminOrganizationsPath}/${encodeURIComponent(organizationId)}`;
