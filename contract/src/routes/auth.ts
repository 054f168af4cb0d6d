import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  ApiKeyCreatedSchema,
  AuthConfigSchema,
  GenerateKeyBodySchema,
  InvitationPreviewSchema,
  LoginBodySchema,
  LogoutBodySchema,
  MeSchema,
  RefreshBodySchema,
  SessionSchema,
  SignupBodySchema,
  SwitchOrgBodySchema,
} from '../resources/auth.js';

const c = initContract();

export const auth = c.router({
  config: {
    method: 'GET',
    path: '/api/v1/auth/config',
    responses: { 200: AuthConfigSchema },
    metadata: { public: true } as const,
    summary: 'Get the public authentication configuration',
  },
  login: {
    method: 'POST',
    path: '/api/v1/auth/login',
    body: LoginBodySchema,
    responses: { 200: SessionSchema },
    metadata: { public: true } as const,
    summary: 'Create a session with e-mail and password',
  },
  signup: {
    method: 'POST',
    path: '/api/v1/auth/signup',
    body: SignupBodySchema,
    responses: { 201: SessionSchema },
    metadata: { public: true } as const,
    summary: 'Create a user with a new organization, its default workspace and an OWNER membership',
  },
  refresh: {
    method: 'POST',
    path: '/api/v1/auth/refresh',
    body: RefreshBodySchema,
    responses: { 200: SessionSchema },
    metadata: { public: true } as const,
    summary: 'Rotate a refresh token into a new session (reuse revokes the token family)',
  },
  invitationPreview: {
    method: 'GET',
    path: '/api/v1/auth/invitations/preview/:token',
    pathParams: z.object({ token: z.string().min(1).max(512) }),
    responses: { 200: InvitationPreviewSchema },
    metadata: { public: true } as const,
    summary: 'Preview an invitation by its token (unknown, revoked or expired: 404)',
  },
  generateKey: {
    method: 'POST',
    path: '/api/v1/auth/generate-key',
    body: GenerateKeyBodySchema,
    responses: { 201: ApiKeyCreatedSchema },
    metadata: { minRole: 'ADMIN' } as const,
    summary: 'Generate an organization API key (interactive users only; the key is shown once)',
  },
  switchOrg: {
    method: 'POST',
    path: '/api/v1/auth/switch-org',
    body: SwitchOrgBodySchema,
    responses: { 200: SessionSchema },
    summary: 'Get a session for another organization the user is an active member of',
  },
  me: {
    method: 'GET',
    path: '/api/v1/auth/me',
    responses: { 200: MeSchema },
    summary: 'Get the caller: user or API key, organization, workspace, role and memberships',
  },
  logout: {
    method: 'POST',
    path: '/api/v1/auth/logout',
    body: LogoutBodySchema,
    responses: { 204: c.noBody() },
    metadata: { public: true } as const,
    summary: 'Revoke a refresh token and its family (always 204, even for unknown tokens)',
  },
});
