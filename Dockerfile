# One image for every app; the command picks the app (see docker-compose.yml and deploy/).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN NX_DAEMON=false NX_NO_CLOUD=true node node_modules/nx/dist/bin/nx.js run-many -t build --outputStyle=static \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Where the secrets volume is mounted: owned by the app's user, so `init-secrets` can write it.
RUN mkdir -p /secrets && chown node:node /secrets && chmod 700 /secrets
USER node
CMD ["node", "dist/apps/gateway/src/main.js"]
